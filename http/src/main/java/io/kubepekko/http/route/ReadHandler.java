package io.kubepekko.http.route;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.PartialObjects;
import io.kubepekko.api.metrics.RequestLabels;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.table.IncludeObject;
import io.kubepekko.api.table.Tables;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import io.kubepekko.http.encoding.WatchFraming;
import io.kubepekko.http.metrics.ServerMetrics;
import io.kubepekko.http.route.ResourceHandler.Request;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;
import org.apache.pekko.http.javadsl.model.ContentType;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.MediaTypes;
import org.apache.pekko.http.javadsl.model.ws.Message;
import org.apache.pekko.http.javadsl.model.ws.TextMessage;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.SharedKillSwitch;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.util.ByteString;

/**
 * The read verbs of the resource endpoints — get, list and watch — in every representation a client
 * may ask for (the object, a Table, PartialObjectMetadata, JSON, YAML, protobuf; watches chunked or
 * over a WebSocket). Part of {@link ResourceHandler}.
 */
final class ReadHandler {

    private static final ContentType PROTOBUF_WATCH =
            ContentTypes.create(
                    MediaTypes.customBinary(
                            "application",
                            "vnd.kubernetes.protobuf",
                            false,
                            Map.of("stream", "watch"),
                            false));

    private final ControlPlane controlPlane;
    private final WatchTimeouts watchTimeouts;

    /** Ends every watch stream at shutdown ({@link #endWatches}). */
    private final SharedKillSwitch watches = KillSwitches.shared("watches");

    /** Ages in Tables are measured to this clock's now. */
    private final Clock clock;

    /** Counts the events sent to watchers, and the watches over WebSockets while they run. */
    private final ServerMetrics metrics;

    ReadHandler(
            ControlPlane controlPlane,
            WatchTimeouts watchTimeouts,
            Clock clock,
            ServerMetrics metrics) {
        this.controlPlane = controlPlane;
        this.watchTimeouts = watchTimeouts;
        this.clock = clock;
        this.metrics = metrics;
    }

    private ReadOptions readOptions(ReadOptions.Verb verb, Request r) {
        return ReadOptions.parse(verb, r.query().toMultiMap(), controlPlane.featureGates());
    }

    /**
     * The options with the field selector in the storage version's labels: a version stored as
     * another accepts its own labels only (400 for another, as kube's field label conversion), and
     * the storage matches its objects by its own.
     */
    private static ReadOptions inStorageLabels(ServedKind kind, ReadOptions options) {
        return kind.isStorageVersion()
                ? options
                : options.withFieldSelector(kind.storageFieldSelector(options.fieldSelector()));
    }

    /** The stored objects in the served version, each then decorated by {@code then}. */
    private static UnaryOperator<byte[]> served(ServedKind kind, UnaryOperator<byte[]> then) {
        if (kind.isStorageVersion()) {
            return then;
        }
        return then == null ? kind::fromStorage : json -> then.apply(kind.fromStorage(json));
    }

    CompletionStage<HttpResponse> get(ServedKind kind, Request r) {
        KindDefinition definition = kind.definition();
        ResourceType type = definition.type();
        String name = r.info().name();
        IncludeObject include = includeObject(r);
        return controlPlane
                .get(
                        kind.storageType(),
                        r.info().namespace(),
                        name,
                        readOptions(ReadOptions.Verb.GET, r))
                .thenApply(
                        found -> {
                            if (found.isEmpty()) {
                                return r.refusal(ApiStatus.notFound(type.groupResource(), name));
                            }
                            byte[] obj = kind.fromStorage(found.get());
                            if (r.representation().table()) {
                                return Encoder.json(
                                        200,
                                        Tables.renderObject(
                                                r.representation().metaVersion(),
                                                definition.printer(),
                                                obj,
                                                include,
                                                clock.instant()),
                                        r.format(),
                                        r.pretty(),
                                        List.of());
                            }
                            return Encoder.json(
                                    200,
                                    partialObject(type, type.kind(), r, obj),
                                    r.format(),
                                    r.pretty(),
                                    List.of());
                        });
    }

    /**
     * A single object as the client asked: itself, or its PartialObjectMetadata; a
     * PartialObjectMetadataList of it is a 406, as in kube-apiserver (the object is not a list).
     */
    static byte[] partialObject(ResourceType type, String kind, Request r, byte[] obj) {
        String partial = r.representation().partial();
        if (partial == null) {
            return obj;
        }
        if (!partial.equals(PartialObjects.KIND)) {
            throw PartialObjects.mismatch(
                            true,
                            PartialObjects.goType(hasProtobuf(type), type.version(), kind, false))
                    .exception();
        }
        return PartialObjects.of(r.representation().metaVersion(), obj);
    }

    private static boolean hasProtobuf(ResourceType type) {
        return ProtobufBodies.builtin().supports(type.gvk());
    }

    /**
     * The includeObject of a Table read (validated on every read, as kube-apiserver does for
     * Tables).
     */
    private static IncludeObject includeObject(Request r) {
        return r.representation().table()
                ? IncludeObject.parse(r.param("includeObject").orElse(null))
                : IncludeObject.METADATA;
    }

    CompletionStage<HttpResponse> list(ServedKind kind, Request r) {
        KindDefinition definition = kind.definition();
        ResourceType type = definition.type();
        IncludeObject include = includeObject(r);
        ReadOptions options = inStorageLabels(kind, readOptions(ReadOptions.Verb.LIST, r));
        return controlPlane
                .list(kind.storageType(), r.info().namespace(), options)
                .thenApply(
                        chunk -> {
                            // A version stored as another converts each item as it is written:
                            // never a second copy of the list.
                            UnaryOperator<byte[]> links = served(kind, null);
                            if (r.representation().table()) {
                                return Encoder.table(
                                        Tables.listBody(
                                                Encoder.textFormat(r.format(), r.pretty()),
                                                r.representation().metaVersion(),
                                                definition.printer(),
                                                chunk.items(),
                                                include,
                                                new Tables.ListMeta(
                                                        Long.toString(chunk.resourceVersion()),
                                                        chunk.continueToken(),
                                                        chunk.remainingItemCount()),
                                                clock.instant(),
                                                links),
                                        r.format());
                            }
                            String partial = r.representation().partial();
                            if (partial != null) {
                                if (!partial.equals(PartialObjects.LIST_KIND)) {
                                    throw PartialObjects.mismatch(
                                                    false,
                                                    PartialObjects.goType(
                                                            hasProtobuf(type),
                                                            type.version(),
                                                            type.listKind(),
                                                            true))
                                            .exception();
                                }
                                String metaVersion = r.representation().metaVersion();
                                UnaryOperator<byte[]> partialItem =
                                        links == null
                                                ? json -> PartialObjects.of(metaVersion, json)
                                                : json ->
                                                        PartialObjects.of(
                                                                metaVersion, links.apply(json));
                                return Encoder.list(
                                        new GroupVersionKind(
                                                PartialObjects.GROUP,
                                                metaVersion,
                                                PartialObjects.KIND),
                                        PartialObjects.LIST_KIND,
                                        chunk,
                                        partialItem,
                                        r.format(),
                                        r.pretty());
                            }
                            return Encoder.list(
                                    type.gvk(),
                                    type.listKind(),
                                    chunk,
                                    links,
                                    r.format(),
                                    r.pretty());
                        });
    }

    /**
     * A chunked stream of JSON watch events, or the same events as WebSocket text messages when the
     * client asked to upgrade. A watch of a named object ({@code GET .../name?watch}) is a watch of
     * the collection selected by {@code metadata.name}, as in kube-apiserver.
     */
    CompletionStage<HttpResponse> watch(ServedKind served, Request r) {
        KindDefinition definition = served.definition();
        ResourceType type = definition.type();
        if (r.format() == Negotiation.Format.YAML
                || (r.format() == Negotiation.Format.PROTOBUF
                        && (r.webSocket() != null || r.representation().table()))) {
            throw ApiStatus.notAcceptable(
                            "only the following media types are accepted: application/json, "
                                    + "application/json;stream=watch, application/vnd.kubernetes.protobuf, "
                                    + "application/vnd.kubernetes.protobuf;stream=watch")
                    .exception();
        }
        ReadOptions options = readOptions(ReadOptions.Verb.WATCH, r);
        if (r.info().hasName()) {
            options =
                    options.withFieldSelector(
                            ReadOptions.namedSelector(options.fieldSelector(), r.info().name()));
        }
        options = inStorageLabels(served, options);
        Duration timeout = watchTimeouts.of(options.timeoutSeconds());
        // A watch in one version sees every write to the storage, whichever version made it.
        UnaryOperator<byte[]> objects = served(served, json -> json);
        String kind = type.kind();
        String apiVersion = type.apiVersion();
        if (PartialObjects.KIND.equals(r.representation().partial())) {
            // Each event's object as its PartialObjectMetadata; a PartialObjectMetadataList watch
            // gets the
            // objects themselves, as kube-apiserver falls back when the per-event conversion fails.
            String metaVersion = r.representation().metaVersion();
            UnaryOperator<byte[]> whole = objects;
            objects = json -> PartialObjects.of(metaVersion, whole.apply(json));
            kind = PartialObjects.KIND;
            apiVersion = PartialObjects.apiVersion(metaVersion);
        }
        WatchFraming framing =
                r.format() == Negotiation.Format.PROTOBUF
                        ? WatchFraming.protobuf(kind, apiVersion, objects)
                        : r.representation().table()
                                ? WatchFraming.table(
                                        type.kind(),
                                        type.apiVersion(),
                                        objects,
                                        new WatchFraming.TableRows(
                                                r.representation().metaVersion(),
                                                definition.printer(),
                                                includeObject(r),
                                                clock))
                                : new WatchFraming(kind, apiVersion, objects);
        CounterDataPoint sent =
                metrics.watchEvents(r.info().group(), r.info().version(), r.info().resource());
        return controlPlane
                .watch(served.storageType(), r.info().namespace(), options, timeout)
                .thenApply(
                        events -> {
                            if (r.webSocket() != null) {
                                // The chunked watch is counted while its body streams (see
                                // RequestMetering); a WebSocket's messages flow past HTTP.
                                RequestLabels labels =
                                        RequestLabels.of(
                                                Verb.WATCH,
                                                "GET",
                                                r.info().group(),
                                                r.info().version(),
                                                r.info().resource(),
                                                r.info().subresource(),
                                                r.info().namespace(),
                                                r.info().name(),
                                                null,
                                                List.of());
                                // As kube-apiserver: one text message per event (clients like
                                // fabric8 watch this way).
                                return r.webSocket()
                                        .handleMessagesWith(
                                                Sink.ignore(),
                                                events.takeWithin(timeout)
                                                        .via(watches.flow())
                                                        .map(
                                                                e ->
                                                                        (Message)
                                                                                TextMessage.create(
                                                                                        counted(
                                                                                                        sent,
                                                                                                        framing
                                                                                                                .frame(
                                                                                                                        e))
                                                                                                .utf8String()))
                                                        .watchTermination(
                                                                (mat, done) -> {
                                                                    Runnable open =
                                                                            metrics.longRunning(
                                                                                    labels);
                                                                    done.whenComplete(
                                                                            (d, failed) ->
                                                                                    open.run());
                                                                    return mat;
                                                                }));
                            }
                            return HttpResponse.create()
                                    .withStatus(200)
                                    .withEntity(
                                            HttpEntities.createChunked(
                                                    r.format() == Negotiation.Format.PROTOBUF
                                                            ? PROTOBUF_WATCH
                                                            : ContentTypes.APPLICATION_JSON,
                                                    events.takeWithin(timeout)
                                                            .via(watches.flow())
                                                            .map(
                                                                    e ->
                                                                            counted(
                                                                                    sent,
                                                                                    framing.frame(
                                                                                            e)))));
                        });
    }

    /** {@code frame}, counted as one event sent. */
    private static ByteString counted(CounterDataPoint sent, ByteString frame) {
        sent.inc();
        return frame;
    }

    /**
     * Ends every watch stream as if its timeout had come (the chunked body or the WebSocket closes
     * in order), and any watch started later at once: the server is stopping, and clients watch
     * again elsewhere. Streams still open when the actor system terminates would be torn down and
     * logged as failures.
     */
    void endWatches() {
        watches.shutdown();
    }
}
