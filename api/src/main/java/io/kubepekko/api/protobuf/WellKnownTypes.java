package io.kubepekko.api.protobuf;

/**
 * The names, in our message definitions, of the types whose JSON form is not an object of their
 * fields. The protobuf codec converts them specially ({@link SpecialTypes}) and the OpenAPI
 * documents describe them specially; both key on these names.
 */
public final class WellKnownTypes {
    private WellKnownTypes() {}

    public static final String TIME = "meta.Time";
    public static final String MICRO_TIME = "meta.MicroTime";
    public static final String DURATION = "meta.Duration";
    public static final String INT_OR_STRING = "intstr.IntOrString";
    public static final String QUANTITY = "resource.Quantity";
    public static final String FIELDS_V1 = "meta.FieldsV1";
    public static final String RAW_EXTENSION = "runtime.RawExtension";

    /**
     * authentication/v1 and authorization/v1 {@code ExtraValue}: a Go {@code []string} whose
     * message wraps the strings in field 1, and whose JSON form is the array.
     */
    public static final String EXTRA_VALUE = "auth.ExtraValue";
}
