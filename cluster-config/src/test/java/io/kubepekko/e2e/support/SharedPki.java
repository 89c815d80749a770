package io.kubepekko.e2e.support;

import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.SecureServing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * The CAs and service-account key the servers of one test cluster share ({@link Pki#SHARED}), made
 * before any of them starts, as an operator provisions a cluster: each server's data directory is
 * {@link #seed seeded} with them, and each server then issues its own serving and admin
 * certificates from them. So one client ({@link #admin()}) talks to every node, a proxy in front of
 * them included, and a token one node signs every other accepts.
 */
public final class SharedPki {
    private final Path dir;
    private final ClientTls admin;

    private SharedPki(Path dir, ClientTls admin) {
        this.dir = dir;
        this.admin = admin;
    }

    /**
     * Creates the shared files under {@code dir/pki} (with the server's own code, as a server's
     * first start creates them).
     */
    public static SharedPki create(Path dir) {
        try {
            Pki.Material material =
                    Pki.prepare(
                            dir,
                            SecureServing.generated(),
                            ServingNames.of("", Optional.empty(), "10.0.0.1"),
                            Clock.systemUTC());
            return new SharedPki(dir, ClientTls.admin(material));
        } catch (IOException e) {
            throw new UncheckedIOException("the cluster's PKI could not be created in " + dir, e);
        }
    }

    /** Copies the shared files into {@code dataDir} before a server first starts there. */
    public void seed(Path dataDir) {
        try {
            Pki.share(dir, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "the cluster's PKI could not be copied to " + dataDir, e);
        }
    }

    /**
     * TLS as an admin ({@code kubernetes-admin} in {@code system:masters}) of every server seeded.
     */
    public ClientTls admin() {
        return admin;
    }

    /** Where the shared files' directory ({@code pki/}) is: a user's certificate comes from it. */
    public Path dataDir() {
        return dir;
    }
}
