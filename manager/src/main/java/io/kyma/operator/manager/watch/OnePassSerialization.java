package io.kyma.operator.manager.watch;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The client's JSON mapping, with two savings on the operator's hottest paths.
 * <ul>
 * <li>Watch events of the operator's own kinds are read in one pass, straight into the typed object. fabric8 reads
 * each event into a tree, then (for a kind it has not registered) into a generic resource of nested maps, and then
 * converts that into the watched type: three passes over every event.</li>
 * <li>Objects are read without their {@code managedFields}, which the operator's caches dropped after reading them
 * anyway; the parser skips them instead of building them, in watch events, lists and the answers to writes.</li>
 * </ul>
 * Watch events are read without the NULs of fabric8's plain HTTP watch (see {@link #unmarshal(String, Class)}).
 * Anything the one-pass reader does not expect (another kind, fields in another order or shape, malformed JSON) goes
 * to fabric8's own reading, so the result is the same either way; only the cost differs.
 */
public final class OnePassSerialization extends KubernetesSerialization {
    private final ObjectMapper mapper;
    private final Map<String, Class<? extends HasMetadata>> kinds;
    private final Map<Class<?>, ObjectReader> readers = new ConcurrentHashMap<>();

    /** @param kinds the kinds whose watch events are read in one pass; they are also registered with fabric8 */
    public OnePassSerialization(List<Class<? extends HasMetadata>> kinds) {
        this(new ObjectMapper(), kinds);
    }

    private OnePassSerialization(ObjectMapper mapper, List<Class<? extends HasMetadata>> kinds) {
        super(mapper, true);
        this.mapper = mapper;
        var byKey = new HashMap<String, Class<? extends HasMetadata>>();
        for (Class<? extends HasMetadata> kind : kinds) {
            registerKubernetesResource(kind);
            byKey.put(key(HasMetadata.getApiVersion(kind), HasMetadata.getKind(kind)), kind);
        }
        this.kinds = Map.copyOf(byKey);
    }

    @Override
    protected void configureMapper(ObjectMapper mapper) {
        super.configureMapper(mapper);
        mapper.addMixIn(ObjectMeta.class, WithoutManagedFields.class);
    }

    /** Server-side apply's bookkeeping, often bigger than the rest of an object; nothing in the operator reads it. */
    @JsonIgnoreProperties("managedFields")
    private abstract static class WithoutManagedFields {}

    /**
     * A watch event is read without the NUL characters fabric8 7.5 puts into events that come over a plain HTTP watch
     * (its fallback when a WebSocket cannot be opened, say on a 503): it appends each network read's whole decoding
     * buffer, whose unfilled end is NULs wherever a read held a character of more than one byte. JSON never carries a
     * raw NUL, so dropping them restores the text the API server sent; read as they are, they end the watch with an
     * error and, through JOSDK, the operator.
     */
    @Override
    public <T> T unmarshal(String str, Class<T> type) {
        if (type == WatchEvent.class) {
            String message = str.indexOf('\0') < 0 ? str : str.replace("\0", "");
            WatchEvent event = readWatchEvent(message);
            return type.cast(event != null ? event : super.unmarshal(message, type));
        }
        return super.unmarshal(str, type);
    }

    /**
     * An answer of the API server (a written object) of one of {@link #kinds()}: read with a reader prepared once for
     * the class instead of one built per call; anything else, YAML included, as fabric8 reads it.
     */
    @Override
    public <T> T unmarshal(InputStream is, TypeReference<T> type) {
        Class<? extends HasMetadata> kind =
                type.getType() instanceof Class<?> c && kinds.containsValue(c) ? c.asSubclass(HasMetadata.class) : null;
        if (kind == null) {
            return super.unmarshal(is, type);
        }
        try (BufferedInputStream in = new BufferedInputStream(is)) {
            in.mark(1);
            int first = in.read();
            in.reset();
            if (first != '{') {
                return super.unmarshal(in, type);
            }
            @SuppressWarnings("unchecked")
            T read = (T) readers.computeIfAbsent(kind, mapper::readerFor).readValue(in);
            return read;
        } catch (IOException e) {
            throw KubernetesClientException.launderThrowable(e);
        }
    }

    /** The kinds read in one pass. */
    public Set<Class<? extends HasMetadata>> kinds() {
        return Set.copyOf(kinds.values());
    }

    /**
     * Reads {"type": ..., "object": {...}} whose object is of one of {@link #kinds()} and starts with its apiVersion
     * and kind, as the API server writes them; anything else gives null.
     */
    WatchEvent readWatchEvent(String message) {
        try (JsonParser parser = mapper.createParser(message)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String eventType = null;
            KubernetesResource object = null;
            for (String field = parser.nextFieldName(); field != null; field = parser.nextFieldName()) {
                JsonToken value = parser.nextToken();
                if ("type".equals(field) && value == JsonToken.VALUE_STRING && eventType == null) {
                    eventType = parser.getText();
                } else if ("object".equals(field) && value == JsonToken.START_OBJECT && object == null) {
                    object = readObject(parser);
                    if (object == null) {
                        return null;
                    }
                } else {
                    return null;
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT
                    || parser.nextToken() != null
                    || eventType == null
                    || object == null) {
                return null;
            }
            WatchEvent event = new WatchEvent();
            event.setType(eventType);
            event.setObject(object);
            return event;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** With the parser on the object's START_OBJECT: its first two fields name the kind, the rest is read typed. */
    private KubernetesResource readObject(JsonParser parser) throws IOException {
        String apiVersion = null;
        String kind = null;
        for (int i = 0; i < 2; i++) {
            String field = parser.nextFieldName();
            if (parser.nextToken() != JsonToken.VALUE_STRING) {
                return null;
            }
            if ("apiVersion".equals(field) && apiVersion == null) {
                apiVersion = parser.getText();
            } else if ("kind".equals(field) && kind == null) {
                kind = parser.getText();
            } else {
                return null;
            }
        }
        Class<? extends HasMetadata> type = kinds.get(key(apiVersion, kind));
        if (type == null) {
            return null;
        }
        // on the next field's name (or the object's end): Jackson's bean reader carries on from there
        parser.nextToken();
        HasMetadata resource = readers.computeIfAbsent(type, mapper::readerFor).readValue(parser);
        // the kind's class sets its apiVersion and kind itself; they must be the ones of the event
        return resource != null && apiVersion.equals(resource.getApiVersion()) && kind.equals(resource.getKind())
                ? resource
                : null;
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + '/' + kind;
    }
}
