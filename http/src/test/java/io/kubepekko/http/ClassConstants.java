package io.kubepekko.http;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The string constants of compiled classes, read from their class files' constant pools. Every
 * string literal a class compares a request path with is there, the compile-time constants of other
 * classes ({@code OpenApiV3.ROOT_PATH}) included, since javac inlines them: a test can so see which
 * paths a handler dispatches on without the handler listing them for it.
 */
final class ClassConstants {
    private ClassConstants() {}

    /**
     * The string constants of every class compiled into the package of {@code anchor}, from a
     * directory or a jar.
     */
    static Set<String> ofPackage(Class<?> anchor) throws IOException {
        Path root;
        try {
            root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        String pkg = anchor.getPackageName().replace('.', '/');
        if (Files.isDirectory(root)) {
            return strings(root.resolve(pkg));
        }
        // Failsafe runs integration tests against the module's jar.
        try (FileSystem jar = FileSystems.newFileSystem(root)) {
            return strings(jar.getPath(pkg));
        }
    }

    private static Set<String> strings(Path dir) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                try (InputStream in = Files.newInputStream(file)) {
                    out.addAll(strings(in));
                }
            }
        }
        return out;
    }

    /** The {@code CONSTANT_String} entries of one class file (JVMS 4.4). */
    static List<String> strings(InputStream classFile) throws IOException {
        DataInputStream in = new DataInputStream(classFile);
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> stringRefs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 8 -> stringRefs.add(in.readUnsignedShort());
                case 7, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    // Long and double take two slots of the pool.
                    in.skipNBytes(8);
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return stringRefs.stream().map(r -> utf8[r]).toList();
    }
}
