package io.kubepekko.api.validation;

import io.kubepekko.api.status.FieldError;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** kube-apiserver's {@code ValidateFieldManager}: the {@code fieldManager} option of a write. */
public final class FieldManagerValidation {
    private FieldManagerValidation() {}

    /** The longest field manager, in bytes of UTF-8. */
    public static final int MAX_LENGTH = 128;

    /**
     * At most {@value #MAX_LENGTH} bytes, and only characters Go prints: one error for the length
     * and one per other character, at its byte position, as kube words them. Empty means "not set".
     */
    public static List<FieldError> validate(String fieldManager) {
        List<FieldError> errors = new ArrayList<>();
        if (fieldManager == null) {
            return errors;
        }
        if (fieldManager.getBytes(StandardCharsets.UTF_8).length > MAX_LENGTH) {
            errors.add(FieldError.tooLong("fieldManager", MAX_LENGTH));
        }
        int position = 0;
        for (int i = 0; i < fieldManager.length(); ) {
            int c = fieldManager.codePointAt(i);
            if (!FieldError.isPrint(c)) {
                errors.add(
                        FieldError.invalid(
                                "fieldManager",
                                fieldManager,
                                String.format(
                                        "invalid character U+%04X (at position %d)", c, position)));
            }
            position += new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8).length;
            i += Character.charCount(c);
        }
        return errors;
    }
}
