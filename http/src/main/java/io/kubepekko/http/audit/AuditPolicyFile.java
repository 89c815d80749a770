package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code --audit-policy-file}: the policy read at start, refused with kube's messages. */
public final class AuditPolicyFile {
    private static final Logger log = LoggerFactory.getLogger(AuditPolicyFile.class);

    private AuditPolicyFile() {}

    /** A policy file that cannot be used; the message is kube-apiserver's. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    /** Reads and checks the policy in {@code file}. */
    public static AuditPolicy load(Path file) throws Invalid {
        String prefix = "loading audit policy file: ";
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new Invalid(
                    prefix + "failed to read file path \"" + file + "\": " + goError(file, e));
        }
        AuditPolicyReader.Result result = AuditPolicyReader.read(content);
        if (result instanceof AuditPolicyReader.Result.Refused refused) {
            throw new Invalid(prefix + refused.message() + ": from file " + file);
        }
        AuditPolicyReader.Result.Loaded loaded = (AuditPolicyReader.Result.Loaded) result;
        loaded.warnings().forEach(w -> log.warn("{}", w));
        return loaded.policy();
    }

    /** The text Go's {@code os.ReadFile} error prints for the common failures. */
    private static String goError(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return "open " + file + ": no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "open " + file + ": permission denied";
        }
        if (Files.isDirectory(file)) {
            return "read " + file + ": is a directory";
        }
        return e.getMessage();
    }
}
