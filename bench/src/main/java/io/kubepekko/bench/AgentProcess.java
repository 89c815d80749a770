package io.kubepekko.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The node agent as a separate process, started through {@code cluster-config/bin/agent} (which
 * builds the agent first when its sources are newer than the last build, then {@code exec}s java:
 * the child's pid is the JVM's). Everything it prints goes to a log file, kept for a look at where
 * the time of a pod start went.
 */
final class AgentProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private AgentProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static AgentProcess start(Path script, List<String> flags, Path log) throws IOException {
        if (!Files.isExecutable(script)) {
            throw new IOException(script + " is missing or not executable");
        }
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(flags);
        Process p =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        return new AgentProcess(p, log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** The last lines of its log, for a failure report. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        Processes.killTree(process, Duration.ofSeconds(30));
    }
}
