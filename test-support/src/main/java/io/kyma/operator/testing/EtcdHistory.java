package io.kyma.operator.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every version ever written of the objects under a key prefix, read from etcd itself through its JSON gateway
 * ({@code /v3/kv/range} at older and older revisions). Unlike a watch, it cannot miss a version while the API server is
 * down or a watch is being re-established; it needs an etcd that has not been compacted since.
 */
public final class EtcdHistory {
    /** One stored version of one object: its etcd key, the revision that wrote it, and the object's JSON. */
    public record Version(String key, long revision, String json) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI range;

    public EtcdHistory(String etcdUrl) {
        this.range = URI.create(etcdUrl + "/v3/kv/range");
    }

    /** The key prefix kube-apiserver stores a namespace's custom resources under. */
    public static String prefix(String group, String plural, String namespace) {
        return "/registry/" + group + "/" + plural + "/" + namespace + "/";
    }

    /** Every version of every object under {@code prefix}, in the order etcd wrote them. */
    public List<Version> versions(String prefix) {
        List<Version> all = new ArrayList<>();
        byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] end = start.clone();
        end[end.length - 1]++;
        for (JsonNode kv : range(start, end, 0)) {
            String key = text(kv.get("key"));
            long revision = kv.path("mod_revision").asLong();
            while (true) {
                List<JsonNode> found = range(key.getBytes(StandardCharsets.UTF_8), null, revision);
                if (found.isEmpty()) {
                    break;
                }
                JsonNode version = found.get(0);
                long modified = version.path("mod_revision").asLong();
                all.add(new Version(key, modified, text(version.get("value"))));
                if (modified <= version.path("create_revision").asLong()) {
                    break;
                }
                revision = modified - 1;
            }
        }
        all.sort(Comparator.comparingLong(Version::revision));
        return all;
    }

    private List<JsonNode> range(byte[] key, byte[] end, long revision) {
        var body = JSON.createObjectNode().put("key", Base64.getEncoder().encodeToString(key));
        if (end != null) {
            body.put("range_end", Base64.getEncoder().encodeToString(end));
        }
        if (revision > 0) {
            body.put("revision", revision);
        }
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(range)
                            // only a read that hangs fails: etcd shares a busy machine with the rest of the test
                            .timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("etcd answered " + response.statusCode() + ": " + response.body());
            }
            List<JsonNode> kvs = new ArrayList<>();
            JsonNode answer = JSON.readTree(response.body()).path("kvs");
            answer.forEach(kvs::add);
            return kvs;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read etcd at " + range, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String text(JsonNode base64) {
        return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.UTF_8);
    }
}
