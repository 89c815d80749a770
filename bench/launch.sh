# Sourced by the bench/ scripts: builds what is missing, then runs one benchmark program.
# Usage (from a script): bench_launch <script name> <main class> "$@"
bench_launch() {
  local name="$1" main="$2"
  shift 2
  local root target classpath
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  target="$root/bench/target"
  # Build when the bench's classes are missing or older than its sources.
  if [[ ! -f "$target/runtime.classpath" ]] \
     || [[ -n "$(find "$root/bench/src" "$root/bench/pom.xml" -newer "$target/runtime.classpath" -print -quit)" ]]; then
    echo "bench: building the project (mvn -B -q -DskipTests package)" >&2
    (cd "$root" && mvn -B -q -DskipTests package)
    touch "$target/runtime.classpath" # the plugin leaves an unchanged file's date alone
  fi
  classpath="$target/classes"
  if [[ -s "$target/runtime.classpath" ]]; then
    classpath="$classpath:$(cat "$target/runtime.classpath")"
  fi
  cd "$root"
  # Lists are streamed, never held whole, so 1 GiB covers even 1,000 watchers with their buffers.
  exec java -Xms256m -Xmx1g \
    -Dbench.root="$root" \
    -Dbench.command="bench/$name $*" \
    -cp "$classpath" "$main" "$@"
}
