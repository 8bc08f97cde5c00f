package org.jmca.pml.ob1;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlStatus;

/** A posted receive: waits in its context's posted queue, then (for rendezvous) for fragments. */
final class Ob1RecvRequest extends Ob1Request {
    final MemorySegment buffer;
    final int source;
    final int tag;
    final MatchContext context;

    /** Set at match: who sent it, how long it is, how much of it this buffer takes. */
    int matchedSource;
    int matchedTag;
    long total;
    long wanted;
    long received;
    /** The BTL's key for the buffer while a sender may write into it (RPUT), else NOT_EXPOSED. */
    long putKey = org.jmca.mca.btl.BtlModule.NOT_EXPOSED;

    private PmlStatus status;
    private boolean matched;

    Ob1RecvRequest(MemorySegment buffer, int source, int tag, MatchContext context) {
        this.buffer = buffer;
        this.source = source;
        this.tag = tag;
        this.context = context;
    }

    /** True if a message from {@code messageSource} with {@code messageTag} matches this receive. */
    boolean matches(int messageSource, int messageTag) {
        return (source == PmlModule.ANY_SOURCE || source == messageSource)
                && (tag == PmlModule.ANY_TAG ? messageTag >= 0 : tag == messageTag);
    }

    void matched(int messageSource, int messageTag, long messageLength) {
        matched = true;
        matchedSource = messageSource;
        matchedTag = messageTag;
        total = messageLength;
        wanted = Math.min(messageLength, buffer.byteSize());
    }

    /** Completes with what arrived: {@code wanted} bytes, truncated if the message was longer. */
    void completeDelivered() {
        status = new PmlStatus(matchedSource, matchedTag, wanted, false, total > wanted);
        complete();
    }

    @Override
    public PmlStatus status() {
        return status;
    }

    @Override
    public boolean cancel() {
        if (matched || isComplete() || !context.removePosted(this)) {
            return false;
        }
        status = PmlStatus.ofCancelled();
        complete();
        return true;
    }
}
