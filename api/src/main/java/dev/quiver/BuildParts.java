package dev.quiver;

import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks {@link ArrayBuilder#build()} makes before anything moves: every part on the builder's device,
 * open and movable, used once, and matching the field (buffer sizes where known, child and dictionary
 * types, an event where children carry one). Stateless.
 */
final class BuildParts {
    private BuildParts() {}

    static void check(Field field, Device device, List<DeviceBuffer> buffers, List<DeviceArray> children,
                      DeviceArray dictionary, SyncEvent event, long offset, long length) {
        long slots;
        try {
            slots = Math.addExact(offset, length);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("offset " + offset + " + length " + length + " overflows");
        }
        Map<Object, String> seen = new IdentityHashMap<>(buffers.size() + children.size() + 1);
        BufferLayout layout = BufferLayout.of(field.type());
        for (int i = 0; i < buffers.size(); i++) {
            DeviceBuffer buffer = buffers.get(i);
            if (buffer == null) {
                continue;
            }
            String path = "buffers[" + i + "]";
            once(seen, buffer, path);
            buffer.checkMovable(path);
            sameDevice(device, buffer.deviceType(), buffer.deviceId(), path);
            if (i < layout.buffers().size()) {
                checkSize(field, layout.buffers().get(i), buffer.byteSize(), slots, path);
            }
        }
        List<Field> expected = field.children();
        if (children.size() != expected.size()) {
            throw new IllegalArgumentException(field.name() + " (" + field.type().format() + ") has " + expected.size()
                    + " children in its field but " + children.size() + " were given");
        }
        boolean childEvents = false;
        for (int i = 0; i < children.size(); i++) {
            childEvents |= checkMember(seen, device, children.get(i), expected.get(i), "children[" + i + "]");
        }
        if (dictionary != null) {
            if (field.dictionary() == null) {
                throw new IllegalArgumentException("dictionary given but field " + field.name() + " is not dictionary-encoded");
            }
            childEvents |= checkMember(seen, device, dictionary, field.dictionary().values(), "dictionary");
        } else if (field.dictionary() != null) {
            throw new IllegalArgumentException("field " + field.name() + " is dictionary-encoded but no dictionary was given");
        }
        if (event != null) {
            event.checkMovable("syncEvent");
            sameDevice(device, event.deviceType(), event.deviceId(), "syncEvent");
        } else if (childEvents) {
            throw new IllegalArgumentException("a child or the dictionary carries a sync_event but the array has none:"
                    + " make a stream wait on theirs, record an event after it and give it to syncEvent(...)");
        }
    }

    /** @return whether the member carries a sync event */
    private static boolean checkMember(Map<Object, String> seen, Device device, DeviceArray member, Field expected, String path) {
        once(seen, member, path);
        if (member.isClosed()) {
            throw new IllegalArgumentException(path + " is closed or moved: " + member);
        }
        sameDevice(device, member.deviceType(), member.deviceId(), path);
        if (!sameShape(member.field(), expected)) {
            throw new IllegalArgumentException(path + " is " + describe(member.field()) + " but the field wants " + describe(expected));
        }
        return member.syncEvent().isPresent();
    }

    private static void once(Map<Object, String> seen, Object part, String path) {
        String earlier = seen.put(part, path);
        if (earlier != null) {
            throw new IllegalArgumentException(path + " is the same object as " + earlier + "; each part moves in once");
        }
    }

    private static void sameDevice(Device device, DeviceType type, long id, String path) {
        if (!type.equals(device.type()) || id != device.id()) {
            throw new IllegalArgumentException(path + " is on " + type + ":" + id + " but the array is built on "
                    + device.type() + ":" + device.id());
        }
    }

    private static void checkSize(Field field, BufferLayout.Buffer buffer, long size, long slots, String path) {
        if (size < 0 || buffer.kind() == BufferLayout.Kind.DATA) {
            return;
        }
        boolean listView = field.dictionary() == null
                && (field.type() instanceof ArrowType.ListView || field.type() instanceof ArrowType.LargeListView);
        long needed;
        try {
            needed = listView && buffer.kind() == BufferLayout.Kind.OFFSETS
                    ? Math.multiplyExact(slots, buffer.bitWidth() / 8) : buffer.bytesFor(slots);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(path + ": offset + length = " + slots + " slots overflow a buffer size");
        }
        if (size < needed) {
            throw new IllegalArgumentException(path + " (" + buffer.name() + ") holds " + size + " bytes but offset + length = "
                    + slots + " slots of " + buffer.bitWidth() + " bits need " + needed);
        }
    }

    private static boolean sameShape(Field a, Field b) {
        if (!a.type().equals(b.type()) || a.children().size() != b.children().size()) {
            return false;
        }
        for (int i = 0; i < a.children().size(); i++) {
            if (!sameShape(a.children().get(i), b.children().get(i))) {
                return false;
            }
        }
        if (a.dictionary() == null || b.dictionary() == null) {
            return a.dictionary() == b.dictionary();
        }
        return sameShape(a.dictionary().values(), b.dictionary().values());
    }

    private static String describe(Field f) {
        return f.type().format() + (f.children().isEmpty() ? "" : " with " + f.children().size() + " children");
    }
}
