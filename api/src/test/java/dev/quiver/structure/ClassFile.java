package dev.quiver.structure;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one compiled class refers to, read from its constant pool: the classes it names (in class entries,
 * descriptors and generic signatures) and the methods it calls or makes method handles of. Immutable.
 *
 * @param name       the class's binary name, for example {@code dev.quiver.DeviceArray$State}
 * @param referenced binary names of every class it refers to
 * @param methods    every method it refers to
 */
record ClassFile(String name, Set<String> referenced, List<MethodRef> methods) {
    private static final Pattern TYPE_IN_DESCRIPTOR = Pattern.compile("L([\\w/$]+)[;<]");

    /**
     * A method named in a constant pool.
     *
     * @param owner the binary name of the class or interface the reference goes through
     * @param name  the method name
     */
    record MethodRef(String owner, String name) {}

    /** @return the package of this class, {@code ""} for the unnamed package */
    String packageName() {
        return packageOf(name);
    }

    /**
     * @param binaryName a class's binary name
     * @return its package
     */
    static String packageOf(String binaryName) {
        int dot = binaryName.lastIndexOf('.');
        return dot < 0 ? "" : binaryName.substring(0, dot);
    }

    /**
     * @param bytes the contents of a {@code .class} file
     * @return what it refers to
     * @throws IllegalArgumentException if the bytes are not a class file
     */
    static ClassFile parse(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file: bad magic number");
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            Object[] pool = new Object[count];
            int[][] refs = new int[count][];
            int[] tags = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                tags[i] = tag;
                switch (tag) {
                    case 1 -> pool[i] = in.readUTF();
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++;
                    }
                    case 7, 8, 16, 19, 20 -> refs[i] = new int[] {in.readUnsignedShort()};
                    case 9, 10, 11, 12, 17, 18 -> refs[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
                    case 15 -> {
                        in.readUnsignedByte();
                        refs[i] = new int[] {in.readUnsignedShort()};
                    }
                    default -> throw new IllegalArgumentException("not a class file: constant pool tag " + tag + " at entry " + i);
                }
            }
            in.readUnsignedShort();
            String self = binaryName((String) pool[refs[in.readUnsignedShort()][0]]);
            Set<String> referenced = new LinkedHashSet<>();
            List<MethodRef> methods = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                if (tags[i] == 7) {
                    addTypes((String) pool[refs[i][0]], referenced);
                } else if (tags[i] == 1) {
                    Matcher m = TYPE_IN_DESCRIPTOR.matcher((String) pool[i]);
                    while (m.find()) {
                        referenced.add(binaryName(m.group(1)));
                    }
                } else if (tags[i] == 10 || tags[i] == 11) {
                    String owner = binaryName((String) pool[refs[refs[i][0]][0]]);
                    String method = (String) pool[refs[refs[i][1]][0]];
                    methods.add(new MethodRef(owner, method));
                }
            }
            referenced.remove(self);
            return new ClassFile(self, Set.copyOf(referenced), List.copyOf(methods));
        } catch (IOException e) {
            throw new IllegalArgumentException("not a class file: " + e.getMessage(), e);
        }
    }

    private static void addTypes(String classEntry, Set<String> out) {
        if (classEntry.startsWith("[")) {
            Matcher m = TYPE_IN_DESCRIPTOR.matcher(classEntry);
            while (m.find()) {
                out.add(binaryName(m.group(1)));
            }
        } else {
            out.add(binaryName(classEntry));
        }
    }

    private static String binaryName(String internalName) {
        return internalName.replace('/', '.');
    }
}
