package io.kubepekko.api.store;

/**
 * Options every write carries.
 *
 * @param dryRun          run every stage but persistence ({@code dryRun=All})
 * @param fieldManager    the manager name recorded for this write (may be null: derived later)
 * @param fieldValidation {@code Strict}, {@code Warn} or {@code Ignore}, already validated
 */
public record WriteOptions(boolean dryRun, String fieldManager, String fieldValidation) {
    public static final WriteOptions DEFAULT = new WriteOptions(false, null, "Warn");
}
