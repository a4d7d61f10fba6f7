package batchpipe.worker.scan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The requested dotted paths merged into a tree of field names, so one walk over a line finds all of
 * them. Each path gets a slot (its index in the list given to {@link #of}); a leaf lists its slots.
 */
final class FieldPathTree {

    static final class Node {
        final byte[] name;
        /** The name's first eight bytes ({@link ByteWords#headWord}): most names compare in this one test. */
        final long head;
        Node[] children = new Node[0];
        int[] slots = new int[0];

        Node(byte[] name) {
            this.name = name;
            this.head = ByteWords.headWord(name, 0, name.length);
        }

        /** One bit per child, as the scan marks the children it has seen in an object. */
        long allChildren;

        Node child(byte[] childName) {
            for (Node c : children) {
                if (Arrays.equals(c.name, childName)) {
                    return c;
                }
            }
            Node c = new Node(childName);
            children = Arrays.copyOf(children, children.length + 1);
            children[children.length - 1] = c;
            allChildren |= 1L << (children.length - 1);
            return c;
        }
    }

    final Node root = new Node(new byte[0]);
    final int slotCount;

    private FieldPathTree(int slotCount) {
        this.slotCount = slotCount;
    }

    static FieldPathTree of(List<String> paths) {
        FieldPathTree tree = new FieldPathTree(paths.size());
        for (int slot = 0; slot < paths.size(); slot++) {
            Node node = tree.root;
            for (byte[] segment : FieldPath.segments(paths.get(slot))) {
                node = node.child(segment);
            }
            node.slots = Arrays.copyOf(node.slots, node.slots.length + 1);
            node.slots[node.slots.length - 1] = slot;
        }
        return tree;
    }

    static List<String> pathsOf(ScanOptions options) {
        List<String> paths = new ArrayList<>(options.countBy());
        if (options.match() instanceof Match.FieldEquals equals) {
            paths.add(equals.path());
        }
        return paths;
    }
}
