package io.kubepekko.agent.cri;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ImageRefsTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "busybox, docker.io/library/busybox:latest",
        "busybox:1.36, docker.io/library/busybox:1.36",
        "library/busybox:1.36, docker.io/library/busybox:1.36",
        "org/tool:2, docker.io/org/tool:2",
        "registry.k8s.io/pause:3.10, registry.k8s.io/pause:3.10",
        "localhost/img, localhost/img:latest",
        "host:5000/img, host:5000/img:latest",
        "host:5000/team/img:1, host:5000/team/img:1",
        "busybox@sha256:abc, docker.io/library/busybox@sha256:abc",
    })
    void normalisesAsContainerdDoes(String ref, String normalized) {
        assertEquals(normalized, ImageRefs.normalize(ref));
    }

    @ParameterizedTest(name = "{0} is in {1}")
    @CsvSource({
        "docker.io/library/busybox:1.36, docker.io/library/busybox",
        "host:5000/img:latest, host:5000/img",
        "docker.io/library/busybox@sha256:abc, docker.io/library/busybox",
    })
    void findsTheRepository(String normalized, String repository) {
        assertEquals(repository, ImageRefs.repository(normalized));
    }
}
