# Sourced by the launch scripts (bin/apiserver, bench/floor-server): class-data sharing (AppCDS) for one program.
# The JVM maps the classes a previous start of this build loaded from an archive instead of reading, parsing and
# verifying them again, which takes seconds off the start (docs/benchmarks/cold.md).
#
# class_data_sharing NAME CLASSPATH DEFAULT_DIR sets the array cds_options to the java options of this start.
# The archive is named after NAME and what it was made from (this java and every classpath entry's path, size and
# date), so a rebuilt jar or another JDK simply finds none; a start that finds none writes one when it exits
# (-XX:ArchiveClassesAtExit, JDK 13+), one start at a time (a lock directory holding its pid). The JVM writes to a
# .part file, and the program creates a .ready file (the path in -Dkubepekko.ready-file) once it serves: the next
# start keeps the .part only when both are there and the JVM itself accepts it, so neither a dump cut short (a
# kill -9 at exit) nor one of a start that never served (--help, a refused flag: a fraction of the classes) is
# ever used. The caller must exec java from the shell that called this (the lock holds that pid).
# KUBEPEKKO_CDS=off: no archive; KUBEPEKKO_CDS_DIR: where the archives are kept instead of DEFAULT_DIR.
class_data_sharing() {
  local name="$1" classpath="$2" cds_dir="${KUBEPEKKO_CDS_DIR:-$3}"
  cds_options=()
  [ "${KUBEPEKKO_CDS:-on}" != "off" ] || return 0
  local java_bin cds_key archive lock cp_entries
  java_bin="$(readlink -f "$(command -v java)")"
  # One stat for every entry (a process per entry took 0.7 s of the start); a missing entry's error names it.
  IFS=: read -ra cp_entries <<<"$classpath"
  cds_key="$( { stat -L -c '%n %s %Y' -- "$java_bin" "$(dirname "$java_bin")/../lib/modules" "${cp_entries[@]}" \
                 2>&1 || true; } | cksum | tr ' ' '-')"
  archive="$cds_dir/$name-$cds_key.jsa"
  lock="$cds_dir/$name-dumping"
  mkdir -p "$cds_dir" 2>/dev/null || true
  # A lock whose holder is gone (killed while dumping) is stale.
  if [ -d "$lock" ] && ! kill -0 "$(cat "$lock/pid" 2>/dev/null || echo 0)" 2>/dev/null; then
    rm -rf "$lock"
  fi
  if [ ! -f "$archive" ] && [ -f "$archive.part" ] && mkdir "$lock" 2>/dev/null; then
    echo $$ > "$lock/pid"
    if [ -f "$archive.ready" ] && java -Xshare:on -XX:SharedArchiveFile="$archive.part" -Xlog:disable -cp "$classpath" -version >/dev/null 2>&1; then
      stat -c %s "$archive.part" > "$archive.size"
      mv -f "$archive.part" "$archive"
    else
      rm -f "$archive.part"
    fi
    rm -f "$archive.ready"
    rm -rf "$lock"
  fi
  # The JVM maps the archive without checking its length against its header (a truncated one is a SIGBUS at
  # start), so an archive whose size is not the one it was kept with is dropped.
  if [ -f "$archive" ] && [ "$(stat -c %s "$archive")" != "$(cat "$archive.size" 2>/dev/null)" ]; then
    rm -f "$archive" "$archive.size"
  fi
  if [ -f "$archive" ]; then
    cds_options=(-XX:SharedArchiveFile="$archive" -Xlog:cds*=off)
  elif mkdir "$lock" 2>/dev/null; then
    echo $$ > "$lock/pid" # the caller's exec keeps this pid: the lock is the JVM's until it exits
    rm -f "$cds_dir/$name"-*.jsa "$cds_dir/$name"-*.jsa.*
    cds_options=(-XX:ArchiveClassesAtExit="$archive.part" -Xlog:cds*=off -Dkubepekko.ready-file="$archive.ready")
  fi
}
