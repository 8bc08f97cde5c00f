package org.jmca.coll.gm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jmca.coll.base.Tree;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.pml.PmlRequest;

/**
 * A pipelined broadcast down a tree, segment by segment. Eager segments are copied once at the
 * root into a registered buffer sent to every child; an inner rank forwards each segment to its
 * children <em>straight from the receive buffer it arrived in</em>, before it copies it into the
 * user's buffer, so the NIC sends while the CPU copies and the segment is copied once per rank
 * (the CollGM paper's message forwarding). With {@code coll_gm_forward_from_receive_buffer}
 * false it does what a broadcast over point-to-point does: copy into the user's buffer, then
 * send from there (one more copy into a send buffer per child).
 *
 * <p>Segments larger than the eager limit go by directed sends, store and forward.
 */
final class TreeBcast implements CollRequest, CallChannel.Sink {
    private final CallChannel channel;
    private final GmEngine engine;
    private final MemorySegment data;
    private final Tree tree;
    private final long segment;
    private final int segments;
    private final boolean eager;
    private final boolean forward;
    private final int window;
    private final List<PmlRequest> sends = new ArrayList<>();
    private final List<PmlRequest> receives = new ArrayList<>();
    private int nextToSend;
    private int received;
    private int sendsDone;

    TreeBcast(CallChannel channel, MemorySegment data, Tree tree, long segmentSize) {
        this.channel = channel;
        this.engine = channel.engine();
        this.data = data;
        this.tree = tree;
        long bytes = data.byteSize();
        this.segment = segmentSize > 0 && segmentSize < bytes ? segmentSize : Math.max(bytes, 1);
        this.segments = bytes == 0 ? 0 : (int) ((bytes + segment - 1) / segment);
        this.eager = segment <= engine.settings().eagerLimit();
        this.forward = engine.settings().forward();
        this.window = engine.settings().window();
        if (!tree.isRoot() && segments > 0) {
            if (eager) {
                channel.sink(tree.parent(), this);
            } else {
                for (int s = 0; s < segments; s++) {
                    receives.add(channel.irecv(slice(s), tree.parent(), 0));
                }
            }
        }
    }

    private MemorySegment slice(int s) {
        long offset = s * segment;
        return data.asSlice(offset, Math.min(segment, data.byteSize() - offset));
    }

    @Override
    public boolean test() {
        if (tree.isRoot()) {
            sendFromRoot();
        } else if (!eager) {
            for (; nextToSend < receives.size() && receives.get(nextToSend).isComplete(); nextToSend++) {
                for (int child : tree.children()) {
                    sends.add(channel.isend(slice(nextToSend), child, 0));
                }
            }
        }
        boolean allHere = tree.isRoot() ? nextToSend == segments : eager ? received == segments
                : nextToSend == segments;
        if (!allHere) {
            return false;
        }
        for (; sendsDone < sends.size(); sendsDone++) { // in order: the ones before are done
            if (!sends.get(sendsDone).isComplete()) {
                return false;
            }
        }
        return true;
    }

    /** The root copies each segment once into a registered buffer that goes to every child. */
    private void sendFromRoot() {
        int[] children = tree.children();
        for (; nextToSend < segments; nextToSend++) {
            MemorySegment slice = slice(nextToSend);
            if (!eager || children.length == 0) {
                for (int child : children) {
                    sends.add(channel.isend(slice, child, 0));
                }
                continue;
            }
            MemorySegment buffer = engine.takeSendBuffer(Wire.HEADER + slice.byteSize());
            if (buffer == null) {
                return; // the next test goes on once buffers are back
            }
            MemorySegment message = buffer.asSlice(0, Wire.HEADER + slice.byteSize());
            Wire.write(message, channel.comm().context(), channel.tag(), channel.rank(), nextToSend, Wire.EAGER,
                    Wire.flagsFor(nextToSend, window), slice.byteSize(), 0, 0);
            MemorySegment.copy(slice, 0, message, Wire.HEADER, slice.byteSize());
            CallChannel.Shared shared = new CallChannel.Shared(children.length, () -> engine.giveSendBuffer(buffer));
            for (int child : children) {
                sends.add(channel.sendShared(child, message, shared));
            }
        }
    }

    @Override
    public String refuses(MemorySegment message) {
        int s = Wire.seq(message);
        if (Wire.kind(message) == Wire.EAGER && s >= 0 && s < segments && Wire.a(message) == slice(s).byteSize()) {
            return null;
        }
        return "segment " + s + " of the broadcast is " + (Wire.kind(message) == Wire.EAGER ? Wire.a(message)
                + " bytes" : "no eager message") + " where this rank's call has " + segments + " of up to " + segment
                + " bytes (the ranks passed different counts or datatypes to the call?)";
    }

    /** A segment from the parent, in GM's receive buffer (or a copy of it when it came early). */
    @Override
    public boolean accept(MemorySegment message, GmEngine.Buffer buffer) {
        int s = Wire.seq(message);
        MemorySegment slice = slice(s);
        int[] children = tree.children();
        boolean kept = false;
        if (children.length > 0 && forward && buffer != null) {
            Wire.setSource(message, channel.rank());
            CallChannel.Shared shared = new CallChannel.Shared(children.length, () -> engine.give(buffer));
            for (int child : children) {
                sends.add(channel.sendShared(child, message, shared));
            }
            kept = true;
        }
        MemorySegment.copy(message, Wire.HEADER, slice, 0, slice.byteSize());
        if (children.length > 0 && !kept) {
            for (int child : children) {
                sends.add(channel.isend(slice, child, 0));
            }
        }
        received++;
        return kept;
    }
}
