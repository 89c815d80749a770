package io.kubepekko.persistence.cassandra;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;

/**
 * Cassandra's main, run inside the Cassandra JVM so that it ends with the JVM that started it: its
 * standard input is a pipe from that JVM, which the OS closes however that JVM ends (a kill -9
 * too), and end of input exits this one (Cassandra's shutdown hook drains it). Without it a test
 * JVM killed mid-run would leave its Cassandra running. Cassandra is called by name: it is on this
 * JVM's classpath, not on the launcher's.
 */
public final class ParentWatch {
    private ParentWatch() {}

    public static void main(String[] args) throws Throwable {
        Thread watch =
                new Thread(
                        () -> {
                            try {
                                while (System.in.read() != -1) {
                                    // the parent writes nothing; only the end of input matters
                                }
                            } catch (IOException e) {
                                // a broken pipe is the parent's end too
                            }
                            System.exit(0);
                        },
                        "parent-watch");
        watch.setDaemon(true);
        watch.start();
        try {
            Class.forName(CassandraCommand.MAIN_CLASS)
                    .getMethod("main", String[].class)
                    .invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
