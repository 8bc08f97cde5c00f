package org.jmca.rte;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages between a rank and jmpirun's server, over one TCP connection on loopback, in
 * {@link DataOutputStream} encoding.
 *
 * <pre>
 * rank → server   HELLO    magic, job key (hex), rank, pid
 * rank → server   EXCHANGE hostname, n, n × (key, value)      then waits for:
 * server → rank   RECORDS  size, size × (hostname, n, n × (key, value))   once every rank has sent EXCHANGE
 * rank → server   FINALIZED
 * rank → server   ABORT    code, message
 * </pre>
 */
public final class WireUpProtocol {
    public static final int MAGIC = 0x4a4d5255;
    public static final byte EXCHANGE = 1;
    public static final byte FINALIZED = 2;
    public static final byte ABORT = 3;
    public static final byte RECORDS = 4;

    private WireUpProtocol() {
    }

    public static void writeMap(DataOutputStream out, Map<String, String> values) throws IOException {
        out.writeInt(values.size());
        for (Map.Entry<String, String> e : values.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
    }

    public static Map<String, String> readMap(DataInputStream in) throws IOException {
        int n = count(in, "entries of a map");
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            values.put(in.readUTF(), in.readUTF());
        }
        return values;
    }

    public static void writeRecords(DataOutputStream out, List<PeerRecord> records) throws IOException {
        out.writeByte(RECORDS);
        out.writeInt(records.size());
        for (PeerRecord record : records) {
            out.writeUTF(record.hostname());
            writeMap(out, record.values());
        }
    }

    /** Reads the exchange's records: one per rank of a job of {@code size}. */
    public static List<PeerRecord> readRecords(DataInputStream in, int size) throws IOException {
        byte type = in.readByte();
        if (type != RECORDS) {
            throw new IOException("expected the exchange's records, got message type " + type);
        }
        int records = count(in, "records");
        if (records != size) {
            throw new IOException("the exchange has " + records + " records for a job of " + size + " ranks");
        }
        return readRecordsOf(in, size);
    }

    private static List<PeerRecord> readRecordsOf(DataInputStream in, int size) throws IOException {
        List<PeerRecord> records = new ArrayList<>(size);
        for (int rank = 0; rank < size; rank++) {
            records.add(new PeerRecord(rank, in.readUTF(), readMap(in)));
        }
        return records;
    }

    /**
     * A count read from the wire: never negative. Nothing is allocated ahead by a count (each item
     * is read before it is kept), so a count larger than what follows ends at the end of the
     * stream, not in a huge allocation.
     */
    public static int count(DataInputStream in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("a negative number of " + what + ": " + n);
        }
        return n;
    }
}
