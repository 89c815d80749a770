package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.schema.ModelSchemas;
import io.kubepekko.api.schema.SchemaNode;
import io.kubepekko.api.status.ApiStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a create/update body into the object to store, for one kind: parses JSON or YAML, drops
 * fields the kind's schema does not have, and applies {@link FieldValidation} to unknown and
 * duplicate fields. Failures are 400 BadRequest with kube-apiserver's wording, for example {@code
 * Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.foo"}.
 */
public final class BodyDecoder {
    private static final String STRICT_PREFIX = "strict decoding error: ";

    private final GroupVersionKind kind;
    private final SchemaNode schema;

    /**
     * @param kind the kind the endpoint serves; names it in messages and fills in a missing {@code
     *     apiVersion}/{@code kind} for them
     * @param schema the kind's structural schema
     */
    public BodyDecoder(GroupVersionKind kind, SchemaNode schema) {
        this.kind = kind;
        this.schema = schema;
    }

    /** A decoder for a built-in kind, with its schema from {@link ModelSchemas}. */
    public static BodyDecoder forKind(GroupVersionKind kind) {
        SchemaNode schema =
                ModelSchemas.forKind(kind)
                        .orElseThrow(() -> new IllegalArgumentException("no schema for " + kind));
        return new BodyDecoder(kind, schema);
    }

    /**
     * Decodes a body.
     *
     * @param mediaType the request's Content-Type: {@code application/json} (also when absent) or
     *     {@code application/yaml}, parameters ignored
     * @throws io.kubepekko.api.status.ApiException 400 for malformed bodies, values of the wrong
     *     type and, under {@link FieldValidation#STRICT}, unknown or duplicate fields; 415 for
     *     other media types
     */
    public DecodedBody decode(byte[] body, String mediaType, FieldValidation validation) {
        boolean yaml = isYaml(mediaType);
        if (!yaml) {
            Optional<GoJsonSyntax.Failure> syntax = GoJsonSyntax.check(body);
            if (syntax.isPresent()) {
                GoJsonSyntax.Failure f = syntax.get();
                throw unrecognized(
                        "couldn't get version/kind; json parse error: "
                                + f.message()
                                + " at "
                                + f.position(body),
                        body);
            }
        }
        SchemaDecoding.Outcome outcome;
        try (JsonParser parser =
                yaml
                        ? new NoAliases((YAMLParser) Json.YAML.getFactory().createParser(body))
                        : Json.MAPPER.getFactory().createParser(body)) {
            outcome = SchemaDecoding.decode(parser, yaml, schema);
        } catch (JsonProcessingException e) {
            throw unrecognized(syntaxMessage(e, yaml), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return conclude(outcome, validation, body);
    }

    /**
     * Applies the schema to an object built by the server, such as the result of a patch: removes
     * unknown fields and reports them, and reports values of the wrong type, exactly as {@link
     * #decode} would for the same object sent as JSON.
     */
    public DecodedBody prune(ObjectNode object, FieldValidation validation) {
        SchemaDecoding.Outcome outcome;
        try (JsonParser parser = object.traverse(Json.MAPPER)) {
            outcome = SchemaDecoding.decode(parser, false, schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return conclude(outcome, validation, null);
    }

    /**
     * As {@link #prune}, for a server-side apply configuration: empty maps and lists stay, because
     * they take part in the merge (an applied {@code tolerations: []} replaces the live list); the
     * merged object is pruned afterwards like any other write.
     */
    public DecodedBody pruneAppliedConfiguration(ObjectNode config, FieldValidation validation) {
        SchemaDecoding.Outcome outcome;
        try (JsonParser parser = config.traverse(Json.MAPPER)) {
            outcome = SchemaDecoding.decodeKeepingEmpty(parser, schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return conclude(outcome, validation, null);
    }

    private DecodedBody conclude(
            SchemaDecoding.Outcome o, FieldValidation validation, byte[] body) {
        if (o.interpretError() != null) {
            throw unrecognized(
                    "couldn't get version/kind; json parse error: " + o.interpretError(), body);
        }
        String version = bodyVersion(o.bodyApiVersion(), body);
        String actualKind =
                o.bodyKind() == null || o.bodyKind().isEmpty() ? kind.kind() : o.bodyKind();
        String prefix =
                actualKind
                        + " in version \""
                        + version
                        + "\" cannot be handled as a "
                        + kind.kind()
                        + ": ";
        if (o.typeError() != null) {
            throw ApiStatus.badRequest(prefix + o.typeError()).exception();
        }
        List<String> errors = new ArrayList<>();
        if (!o.yamlDuplicates().isEmpty()) {
            errors.add("yaml: unmarshal errors:\n  " + String.join("\n  ", o.yamlDuplicates()));
        }
        List<String> unknown = new ArrayList<>();
        List<String> duplicates = new ArrayList<>(o.yamlDuplicatePaths());
        for (StrictProblem problem : o.strict()) {
            errors.add(problem.message());
            (problem.kind() == StrictProblem.Kind.UNKNOWN ? unknown : duplicates)
                    .add(problem.path());
        }
        List<String> warnings = List.of();
        if (!errors.isEmpty()) {
            switch (validation) {
                case STRICT ->
                        throw ApiStatus.badRequest(
                                        prefix + STRICT_PREFIX + String.join(", ", errors))
                                .exception();
                case WARN -> {
                    // One warning per problem; the YAML converter's combined error is split per
                    // line.
                    List<String> w = new ArrayList<>(o.yamlDuplicates());
                    o.strict().forEach(problem -> w.add(problem.message()));
                    warnings = w;
                }
                case IGNORE -> {}
            }
        }
        return new DecodedBody(o.object(), unknown, duplicates, warnings);
    }

    /** The version Kubernetes names in decode errors: the body's, else the endpoint's. */
    private String bodyVersion(String apiVersion, byte[] body) {
        if (apiVersion == null || apiVersion.isEmpty() || apiVersion.equals("/")) {
            return kind.version();
        }
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return apiVersion;
        }
        if (apiVersion.indexOf('/', slash + 1) >= 0) {
            throw unrecognized("unexpected GroupVersion string: " + apiVersion, body);
        }
        String version = apiVersion.substring(slash + 1);
        return version.isEmpty() ? kind.version() : version;
    }

    private RuntimeException unrecognized(String error, byte[] body) {
        String message =
                "the object provided is unrecognized (must be of type "
                        + kind.kind()
                        + "): "
                        + error;
        if (body != null) {
            message += " (" + summarize(body) + ")";
        }
        return ApiStatus.badRequest(message).exception();
    }

    /**
     * kube-apiserver's {@code summarizeData}: the start of the body, as text if it looks like JSON,
     * else hex.
     */
    static String summarize(byte[] data) {
        int max = 30;
        if (data.length == 0) {
            return "<empty>";
        }
        int n = Math.min(data.length, max);
        String head =
                data[0] == '{'
                        ? new String(data, 0, n, StandardCharsets.UTF_8)
                        : HexFormat.of().formatHex(data, 0, n);
        return data.length > max ? head + " ..." : head;
    }

    private static String syntaxMessage(JsonProcessingException e, boolean yaml) {
        String problem = e.getOriginalMessage();
        int newline = problem.indexOf('\n');
        if (newline >= 0) {
            problem = problem.substring(0, newline);
        }
        int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        if (yaml) {
            return "error converting YAML to JSON: yaml: line " + line + ": " + problem;
        }
        int column = e.getLocation() == null ? 0 : e.getLocation().getColumnNr();
        return "couldn't get version/kind; json parse error: "
                + problem
                + " at line "
                + line
                + ", column "
                + column;
    }

    /**
     * Rejects YAML aliases: Jackson's parser reports an alias as its anchor's name, which would
     * silently store the wrong value. Kubernetes expands them; we refuse until we do.
     */
    private static final class NoAliases extends JsonParserDelegate {
        private final YAMLParser yaml;

        NoAliases(YAMLParser yaml) {
            super(yaml);
            this.yaml = yaml;
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = super.nextToken();
            if (yaml.isCurrentAlias()) {
                throw new JsonParseException(
                        this, "aliases are not supported", yaml.currentTokenLocation());
            }
            return t;
        }
    }

    private static boolean isYaml(String mediaType) {
        if (mediaType == null || mediaType.isBlank()) {
            return false;
        }
        String type = mediaType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return switch (type) {
            case "application/json" -> false;
            case "application/yaml" -> true;
            default ->
                    throw ApiStatus.unsupportedMediaType(
                                    "the body of the request was in an unknown format - "
                                            + "accepted media types include: application/json, application/yaml")
                            .exception();
        };
    }
}
