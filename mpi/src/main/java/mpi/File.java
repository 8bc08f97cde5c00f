package mpi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.jmca.mca.McaException;
import org.jmca.rte.WireUpException;
import org.jmca.runtime.FileAccess;
import org.jmca.runtime.FilePieces;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.SharedFilePointer;
import org.jmca.runtime.TwoPhaseIo;
import org.jmca.runtime.TypeLayout;
import org.jmca.runtime.UserBuffer;
import org.jmca.runtime.ViewLayout;

/**
 * MPI-IO: a file opened by a group of processes, on a local or shared file system.
 *
 * <p>Data goes through the view: the displacement, then the filetype's blocks tiled one extent
 * after another ({@link ViewLayout}); offsets and file pointers count etypes of the view. Each
 * process has its own file pointer; the group shares another ({@link SharedFilePointer}).
 * Independent calls access the file directly; the collective ones ({@code readAll},
 * {@code writeAtAll}, ordered and split forms) go in two phases through aggregators
 * ({@link TwoPhaseIo}). In atomic mode every access locks its byte range. The non-blocking
 * forms do their work when they start and return a completed request; the split collectives do
 * theirs in the begin call. Data representation "native" (and "internal", the same here).
 *
 * <p>Errors go to the file's error handler, {@link MPI#ERRORS_RETURN} unless set: an
 * {@link MPIException} of the class MPI names (MPI_ERR_NO_SUCH_FILE, MPI_ERR_AMODE,
 * MPI_ERR_READ_ONLY...).
 */
public class File {
    private final Intracomm group;
    private final Path path;
    private final int amode;
    private final FileChannel channel;
    private final SharedFilePointer shared;
    private final TwoPhaseIo collective;
    private Map<String, String> hints;
    private Errhandler errhandler = MPI.ERRORS_RETURN;
    private long disp;
    private Datatype etype = MPI.BYTE;
    private Datatype filetype = MPI.BYTE;
    private String datarep = "native";
    private ViewLayout view = ViewLayout.of(0, TypeLayout.primitive(1));
    /** The individual file pointer, in etypes. */
    private long position;
    private boolean atomic;
    private boolean closed;
    /** The status a split collective's end returns; null when none has begun. */
    private Status pendingSplit;

    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, MPI.INFO_NULL);
    }

    /** Opens (and with MPI.MODE_CREATE makes) {@code filename}. Collective over {@code comm}. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        MPIException.mapped(() -> FileAccess.checkAmode(amode));
        if (comm == null || comm.isNull() || comm.isInter()) {
            throw new MPIException(MPI.ERR_COMM, "files are opened by an intracommunicator, not "
                    + (comm == null ? "null" : comm));
        }
        if (filename == null || filename.isEmpty()) {
            throw new MPIException(MPI.ERR_BAD_FILE, "the file name is " + (filename == null ? "null" : "empty"));
        }
        this.hints = info == null || info.isNull() ? Map.of() : info.entries();
        // the hints are checked before anything is made
        int size = comm.getSize();
        int aggregators = MPIException.mapped(() -> FileAccess.aggregators(hints, size));
        TwoPhaseIo.Buffering forWrites = MPIException.mapped(() -> FileAccess.buffering(hints, "romio_cb_write"));
        TwoPhaseIo.Buffering forReads = MPIException.mapped(() -> FileAccess.buffering(hints, "romio_cb_read"));
        this.group = (Intracomm) comm.dup();
        group.setErrhandler(MPI.ERRORS_RETURN);
        this.path = Path.of(filename).toAbsolutePath();
        this.amode = amode;
        // rank 0 makes the file and draws the shared pointer's name; everyone learns how it went
        long[] made = {0, ThreadLocalRandom.current().nextLong()};
        String problem = null;
        if (group.getRank() == 0 && (amode & MPI.MODE_CREATE) != 0) {
            try {
                if ((amode & MPI.MODE_EXCL) != 0) {
                    Files.createFile(path);
                } else if (!Files.exists(path)) {
                    Files.createFile(path);
                }
            } catch (IOException e) {
                MPIException error = ioError(e, "cannot make");
                made[0] = error.getErrorClass();
                problem = error.getMessage();
            }
        }
        group.bcast(made, 2, MPI.LONG, 0);
        if (made[0] != 0) {
            group.free();
            throw new MPIException((int) made[0], problem != null ? problem : "rank 0 could not make " + path);
        }
        FileChannel opened = null;
        int[] failed = {0};
        try {
            opened = FileChannel.open(path, FileAccess.openOptions(amode));
        } catch (IOException e) {
            MPIException error = ioError(e, "cannot open");
            failed[0] = error.getErrorClass();
            problem = error.getMessage();
        }
        int[] worst = new int[1];
        group.allReduce(failed, worst, 1, MPI.INT, MPI.MAX);
        if (worst[0] != 0) {
            closeQuietly(opened);
            group.free();
            throw new MPIException(worst[0], problem != null ? problem : "another process could not open " + path);
        }
        this.channel = opened;
        this.shared = new SharedFilePointer(path, made[1]);
        this.collective = new TwoPhaseIo(group.core, channel, aggregators, forWrites, forReads);
        if ((amode & MPI.MODE_APPEND) != 0) {
            position = getSize();
            group.barrier();
            if (group.getRank() == 0) {
                io("MPI_File_open", () -> {
                    shared.set(position);
                    return null;
                });
            }
            group.barrier();
        }
    }

    private static MPIException ioError(IOException e, String what) {
        MpiError error = FileAccess.ioError(e, what);
        return new MPIException(error.errorClass(), error.getMessage());
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the open failed anyway
            }
        }
    }

    // ---- errors -----------------------------------------------------------------------------

    /** One call's body. */
    private interface Body<T> {
        T run() throws MPIException, IOException;
    }

    private <T> T io(String operation, Body<T> body) throws MPIException {
        try {
            if (closed) {
                throw new MPIException(MPI.ERR_FILE, "the file " + path + " is closed");
            }
            return body.run();
        } catch (IOException e) {
            throw handle(operation, ioError(e, "I/O error on " + path + ":"));
        } catch (MPIException e) {
            throw handle(operation, e);
        } catch (MpiError e) { // from the two-phase exchange's collectives
            throw handle(operation, new MPIException(e.errorClass(), e.getMessage()));
        } catch (McaException | WireUpException | UncheckedIOException e) {
            throw handle(operation, new MPIException(MPI.ERR_OTHER, e.getMessage()));
        }
    }

    private MPIException handle(String operation, MPIException e) {
        if (errhandler.isFatal()) {
            MPI.fatal(operation + " on " + path + ": " + e.getErrorClassName() + ": " + e.getMessage(),
                    e.getErrorClass());
        }
        return e;
    }

    public void setErrhandler(Errhandler handler) throws MPIException {
        if (handler == null) {
            throw handle("MPI_File_set_errhandler", new MPIException(MPI.ERR_ARG, "the error handler is null"));
        }
        errhandler = handler;
    }

    public Errhandler getErrhandler() throws MPIException {
        return errhandler;
    }

    public void callErrhandler(int errorCode) throws MPIException {
        handle("MPI_File_call_errhandler", new MPIException(errorCode, "raised by the program"));
    }

    // ---- the file -------------------------------------------------------------------------------

    /** Closes the file (and deletes it with MPI.MODE_DELETE_ON_CLOSE). Collective. */
    public void close() throws MPIException {
        io("MPI_File_close", () -> {
            group.barrier();
            channel.close();
            shared.close();
            group.barrier();
            if (group.getRank() == 0) {
                shared.delete();
                if ((amode & MPI.MODE_DELETE_ON_CLOSE) != 0) {
                    Files.deleteIfExists(path);
                }
            }
            closed = true;
            group.free();
            return null;
        });
    }

    /** Deletes {@code filename}: MPI_ERR_NO_SUCH_FILE if there is none. */
    public static void delete(String filename) throws MPIException {
        delete(filename, MPI.INFO_NULL);
    }

    public static void delete(String filename, Info info) throws MPIException {
        MPI.COMM_WORLD.runtime();
        try {
            Files.delete(Path.of(filename));
        } catch (IOException e) {
            throw ioError(e, "cannot delete");
        }
    }

    public long getSize() throws MPIException {
        return io("MPI_File_get_size", channel::size);
    }

    /** Truncates or extends the file to {@code size} bytes. Collective. */
    public void setSize(long size) throws MPIException {
        resize("MPI_File_set_size", size, true);
    }

    /** Makes the file at least {@code size} bytes. Collective. */
    public void preallocate(long size) throws MPIException {
        resize("MPI_File_preallocate", size, false);
    }

    private void resize(String operation, long size, boolean truncate) throws MPIException {
        io(operation, () -> {
            if (size < 0) {
                throw new MPIException(MPI.ERR_ARG, "size " + size + " is negative");
            }
            writable();
            group.barrier();
            if (group.getRank() == 0) {
                long now = channel.size();
                if (size < now && truncate) {
                    channel.truncate(size);
                } else if (size > now) {
                    channel.write(ByteBuffer.allocate(1), size - 1);
                }
            }
            group.barrier();
            return null;
        });
    }

    /** Writes what the file's processes wrote to the storage device. Collective. */
    public void sync() throws MPIException {
        io("MPI_File_sync", () -> {
            channel.force(true);
            group.barrier();
            return null;
        });
    }

    public int getAMode() throws MPIException {
        return amode;
    }

    public Group getGroup() throws MPIException {
        return io("MPI_File_get_group", group::getGroup);
    }

    public Info getInfo() throws MPIException {
        return new Info(hints);
    }

    public void setInfo(Info info) throws MPIException {
        hints = info == null || info.isNull() ? Map.of() : info.entries();
    }

    /** Atomic mode: each access locks its byte range, so concurrent accesses see each other whole. Collective. */
    public void setAtomicity(boolean atomicity) throws MPIException {
        io("MPI_File_set_atomicity", () -> {
            group.barrier();
            atomic = atomicity;
            return null;
        });
    }

    public boolean getAtomicity() throws MPIException {
        return atomic;
    }

    // ---- views -----------------------------------------------------------------------------------

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        setView(disp, etype, filetype, datarep, MPI.INFO_NULL);
    }

    /**
     * From now on this process's data lies in {@code filetype}'s blocks, tiled from byte {@code
     * disp}, and offsets count {@code etype}s; both file pointers go back to 0. Collective.
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info)
            throws MPIException {
        io("MPI_File_set_view", () -> {
            if (!"native".equals(datarep) && !"internal".equals(datarep)) {
                throw new MPIException(MPI.ERR_UNSUPPORTED_DATAREP, "data representation '" + datarep + "': JMCA"
                        + " writes \"native\" (and \"internal\", the same), not external32 or user ones");
            }
            if (etype == null || filetype == null) {
                throw new MPIException(MPI.ERR_TYPE, "the " + (etype == null ? "etype" : "filetype") + " is null");
            }
            TypeLayout e = etype.layoutForUse();
            TypeLayout f = filetype.layoutForUse();
            long start = disp;
            if (disp == MPI.DISPLACEMENT_CURRENT) {
                if ((amode & MPI.MODE_SEQUENTIAL) == 0) {
                    throw new MPIException(MPI.ERR_ARG, "MPI.DISPLACEMENT_CURRENT is for files opened with"
                            + " MPI.MODE_SEQUENTIAL");
                }
                start = byteOffset(shared.get());
            } else if (disp < 0) {
                throw new MPIException(MPI.ERR_ARG, "displacement " + disp + " is negative");
            }
            if (e.size() == 0 || f.size() % e.size() != 0) {
                throw new MPIException(MPI.ERR_ARG, "the filetype " + filetype + " (" + f.size() + " bytes) is not"
                        + " made of etypes " + etype + " (" + e.size() + " bytes)");
            }
            checkMonotonic(f, filetype);
            group.barrier();
            this.disp = start;
            this.etype = etype;
            this.filetype = filetype;
            this.datarep = datarep;
            this.view = ViewLayout.of(start, f);
            this.position = 0;
            if (group.getRank() == 0) {
                shared.resetIfUsed();
            }
            group.barrier();
            return null;
        });
    }

    /** MPI requires a filetype's blocks in ascending, non-overlapping order, within its extent. */
    private static void checkMonotonic(TypeLayout f, Datatype filetype) throws MPIException {
        long end = 0;
        for (int b = 0; b < f.offsets().length; b++) {
            if (f.offsets()[b] < end) {
                throw new MPIException(MPI.ERR_ARG, "the filetype " + filetype + " has a block at byte "
                        + f.offsets()[b] + " before the end of the one before it (" + end + "): file views must be"
                        + " monotonically nondecreasing");
            }
            end = f.offsets()[b] + f.lengths()[b];
        }
        if (end > f.extent() && f.size() > 0) {
            throw new MPIException(MPI.ERR_ARG, "the filetype " + filetype + " ends at byte " + end + ", beyond its"
                    + " extent of " + f.extent() + ": its tiles would overlap");
        }
    }

    public FileView getView() {
        return new FileView(disp, etype, filetype, datarep);
    }

    public int getTypeExtent(Datatype type) throws MPIException {
        return io("MPI_File_get_type_extent", type::getExtent);
    }

    /** The absolute byte position of view offset {@code offset}. */
    public long getByteOffset(long offset) throws MPIException {
        return io("MPI_File_get_byte_offset", () -> byteOffset(checkedOffset(offset)));
    }

    private long byteOffset(long offset) throws MPIException {
        return view.tileData() == 0 ? disp : view.pieces(offset * etype.size(), 1).getFirst().offset();
    }

    // ---- file pointers ------------------------------------------------------------------------

    public void seek(long offset, int whence) throws MPIException {
        io("MPI_File_seek", () -> {
            position = sought(position, offset, whence);
            return null;
        });
    }

    public long getPosition() throws MPIException {
        return position;
    }

    /** Moves the shared pointer; every process passes the same arguments. Collective. */
    public void seekShared(long offset, int whence) throws MPIException {
        io("MPI_File_seek_shared", () -> {
            group.barrier();
            if (group.getRank() == 0) {
                shared.set(sought(shared.get(), offset, whence));
            }
            group.barrier();
            return null;
        });
    }

    public long getPositionShared() throws MPIException {
        return io("MPI_File_get_position_shared", shared::get);
    }

    private long sought(long from, long offset, int whence) throws MPIException, IOException {
        long to = switch (whence) {
            case MPI.SEEK_SET -> offset;
            case MPI.SEEK_CUR -> from + offset;
            case MPI.SEEK_END -> view.dataBefore(channel.size()) / etype.size() + offset;
            default -> throw new MPIException(MPI.ERR_ARG, "whence " + whence + " is none of MPI.SEEK_SET,"
                    + " MPI.SEEK_CUR and MPI.SEEK_END");
        };
        if (to < 0) {
            throw new MPIException(MPI.ERR_ARG, "the position would be " + to + ", before the start of the view");
        }
        return to;
    }

    private long checkedOffset(long offset) throws MPIException {
        if (offset < 0) {
            throw new MPIException(MPI.ERR_ARG, "offset " + offset + " is negative");
        }
        return offset;
    }

    /** Explicit offsets and the individual pointer are not for MPI.MODE_SEQUENTIAL files. */
    private void notSequential() throws MPIException {
        if ((amode & MPI.MODE_SEQUENTIAL) != 0) {
            throw new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, path + " was opened with MPI.MODE_SEQUENTIAL:"
                    + " only the shared file pointer may be used");
        }
    }

    // ---- data access ------------------------------------------------------------------------------

    private void readable() throws MPIException {
        if ((amode & MPI.MODE_WRONLY) != 0) {
            throw new MPIException(MPI.ERR_ACCESS, path + " was opened with MPI.MODE_WRONLY");
        }
    }

    private void writable() throws MPIException {
        if ((amode & MPI.MODE_RDONLY) != 0) {
            throw new MPIException(MPI.ERR_READ_ONLY, path + " was opened with MPI.MODE_RDONLY");
        }
    }

    /** The etypes {@code bytes} of data make: a whole number, or MPI_ERR_TYPE. */
    private long etypes(long bytes, Datatype type) throws MPIException {
        if (type == null) {
            throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
        }
        if (bytes % etype.size() != 0) {
            throw new MPIException(MPI.ERR_TYPE, type + " is not made of etypes " + etype + " (" + etype.size()
                    + " bytes)");
        }
        return bytes / etype.size();
    }

    private static int sizeOf(Datatype type) {
        return type == null ? 0 : type.size();
    }

    private static Status status(long bytes) {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, bytes, false);
    }

    /** The memory side of one access: the bytes to write, or where read bytes go. */
    private record Memory(UserBuffer buffer, long bytes) {
        static Memory of(Object buf, int count, Datatype type, boolean forRead) throws MPIException {
            UserBuffer buffer = Datatype.buffer(buf, count, type, forRead);
            return new Memory(buffer, buffer.segment().byteSize());
        }

        MemorySegment segment() {
            return buffer.segment();
        }

        /**
         * The bytes as one buffer channels read and write in place (direct memory, or a byte[]);
         * a copy for other arrays, whose reads {@link #delivered} copies back.
         */
        ByteBuffer forChannel() {
            MemorySegment s = buffer.segment();
            return inPlace() ? s.asByteBuffer() : ByteBuffer.wrap(s.toArray(ValueLayout.JAVA_BYTE));
        }

        private boolean inPlace() {
            MemorySegment s = buffer.segment();
            return s.isNative() || s.heapBase().orElse(null) instanceof byte[];
        }

        /** After a read: copies back from {@code used} (forChannel's buffer, or null if none) if it was a copy, and unpacks. */
        void delivered(ByteBuffer used) {
            if (used != null && !inPlace()) {
                MemorySegment.copy(MemorySegment.ofBuffer(used.clear()), 0, buffer.segment(), 0, bytes);
            }
            if (buffer.afterReceive() != null) {
                buffer.afterReceive().run();
            }
        }
    }

    private Status independentWrite(long offset, Object buf, int count, Datatype type) throws MPIException, IOException {
        writable();
        Memory memory = Memory.of(buf, count, type, false);
        etypes(memory.bytes(), type);
        List<ViewLayout.Piece> pieces = view.pieces(checkedOffset(offset) * etype.size(), memory.bytes());
        try (FileAccess.HeldLock lock = lockFor(pieces, false)) {
            FilePieces.write(channel, pieces, memory.forChannel());
        }
        return status(memory.bytes());
    }

    private Status independentRead(long offset, Object buf, int count, Datatype type) throws MPIException, IOException {
        readable();
        Memory memory = Memory.of(buf, count, type, true);
        etypes(memory.bytes(), type);
        List<ViewLayout.Piece> pieces = view.pieces(checkedOffset(offset) * etype.size(), memory.bytes());
        ByteBuffer data = memory.forChannel();
        int read;
        try (FileAccess.HeldLock lock = lockFor(pieces, true)) {
            read = FilePieces.read(channel, pieces, data);
        }
        memory.delivered(data);
        return status(read);
    }

    /** In atomic mode, a lock on the bytes the access touches (thread ranks of one JVM wait for each other too). */
    private FileAccess.HeldLock lockFor(List<ViewLayout.Piece> pieces, boolean forRead) throws IOException {
        if (!atomic || pieces.isEmpty()) {
            return null;
        }
        long first = pieces.getFirst().offset();
        long end = pieces.getLast().offset() + pieces.getLast().length();
        return FileAccess.lock(path, channel, first, end - first, forRead);
    }

    private Status collectiveWrite(long offset, Object buf, int count, Datatype type) throws MPIException, IOException {
        if (atomic) {
            return independentWrite(offset, buf, count, type); // each access under its byte-range lock
        }
        writable();
        Memory memory = Memory.of(buf, count, type, false);
        etypes(memory.bytes(), type);
        collective.write(view.pieces(checkedOffset(offset) * etype.size(), memory.bytes()), memory.segment());
        return status(memory.bytes());
    }

    private Status collectiveRead(long offset, Object buf, int count, Datatype type) throws MPIException, IOException {
        if (atomic) {
            return independentRead(offset, buf, count, type);
        }
        readable();
        Memory memory = Memory.of(buf, count, type, true);
        etypes(memory.bytes(), type);
        long read = collective.read(view.pieces(checkedOffset(offset) * etype.size(), memory.bytes()),
                memory.segment());
        memory.delivered(null);
        return status(read);
    }

    /** One access at the individual pointer, which then moves past what was asked for. */
    private interface Access {
        Status at(long offset, Object buf, int count, Datatype type) throws MPIException, IOException;
    }

    /** One access at an explicit offset, which MPI.MODE_SEQUENTIAL files do not allow. */
    private Status atOffset(Access access, long offset, Object buf, int count, Datatype type)
            throws MPIException, IOException {
        notSequential();
        return access.at(offset, buf, count, type);
    }

    private Status atPointer(Access access, Object buf, int count, Datatype type) throws MPIException, IOException {
        notSequential();
        Status status = access.at(position, buf, count, type);
        position += etypes((long) count * sizeOf(type), type);
        return status;
    }

    private Status atShared(Access access, Object buf, int count, Datatype type) throws MPIException, IOException {
        long offset = shared.fetchAdd(etypes((long) count * sizeOf(type), type));
        return access.at(offset, buf, count, type);
    }

    /** In rank order from the shared pointer, which moves past all of it. Collective. */
    private Status ordered(Access collectiveAccess, Object buf, int count, Datatype type)
            throws MPIException, IOException {
        long mine = etypes((long) count * sizeOf(type), type);
        long[] all = new long[group.getSize()];
        group.allGather(new long[] {mine}, 1, MPI.LONG, all, 1, MPI.LONG);
        long before = 0;
        long total = 0;
        for (int r = 0; r < all.length; r++) {
            before += r < group.getRank() ? all[r] : 0;
            total += all[r];
        }
        long[] base = {0};
        if (group.getRank() == 0) {
            base[0] = shared.fetchAdd(total);
        }
        group.bcast(base, 1, MPI.LONG, 0);
        return collectiveAccess.at(base[0] + before, buf, count, type);
    }

    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_at", () -> atOffset(this::independentRead, offset, buf, count, type));
    }

    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_at_all", () -> atOffset(this::collectiveRead, offset, buf, count, type));
    }

    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_at", () -> atOffset(this::independentWrite, offset, buf, count, type));
    }

    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_at_all", () -> atOffset(this::collectiveWrite, offset, buf, count, type));
    }

    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return done(readAt(offset, buf, count, type));
    }

    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return done(readAtAll(offset, buf, count, type));
    }

    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return done(writeAt(offset, buf, count, type));
    }

    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return done(writeAtAll(offset, buf, count, type));
    }

    public Status read(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read", () -> atPointer(this::independentRead, buf, count, type));
    }

    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_all", () -> atPointer(this::collectiveRead, buf, count, type));
    }

    public Status write(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write", () -> atPointer(this::independentWrite, buf, count, type));
    }

    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_all", () -> atPointer(this::collectiveWrite, buf, count, type));
    }

    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        return done(read(buf, count, type));
    }

    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        return done(readAll(buf, count, type));
    }

    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        return done(write(buf, count, type));
    }

    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        return done(writeAll(buf, count, type));
    }

    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_shared", () -> atShared(this::independentRead, buf, count, type));
    }

    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_shared", () -> atShared(this::independentWrite, buf, count, type));
    }

    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        return done(readShared(buf, count, type));
    }

    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        return done(writeShared(buf, count, type));
    }

    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_ordered", () -> ordered(this::collectiveRead, buf, count, type));
    }

    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_ordered", () -> ordered(this::collectiveWrite, buf, count, type));
    }

    /** A non-blocking call's request: the work is done when it starts. */
    private Request done(Status status) {
        return Request.completed(group, status);
    }

    // ---- split collectives: the work is done by the begin call ----------------------------------

    private void begin(String operation, Body<Status> body) throws MPIException {
        io(operation, () -> {
            if (pendingSplit != null) {
                throw new MPIException(MPI.ERR_OTHER, "a split collective is already active on " + path
                        + ": end it first");
            }
            pendingSplit = body.run();
            return null;
        });
    }

    private Status end(String operation) throws MPIException {
        return io(operation, () -> {
            Status status = pendingSplit;
            if (status == null) {
                throw new MPIException(MPI.ERR_OTHER, operation + " without its begin call on " + path);
            }
            pendingSplit = null;
            return status;
        });
    }

    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_read_at_all_begin", () -> atOffset(this::collectiveRead, offset, buf, count, type));
    }

    public Status readAtAllEnd(Object buf) throws MPIException {
        return end("MPI_File_read_at_all_end");
    }

    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_write_at_all_begin", () -> atOffset(this::collectiveWrite, offset, buf, count, type));
    }

    public Status writeAtAllEnd(Object buf) throws MPIException {
        return end("MPI_File_write_at_all_end");
    }

    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_read_all_begin", () -> atPointer(this::collectiveRead, buf, count, type));
    }

    public Status readAllEnd(Object buf) throws MPIException {
        return end("MPI_File_read_all_end");
    }

    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_write_all_begin", () -> atPointer(this::collectiveWrite, buf, count, type));
    }

    public Status writeAllEnd(Object buf) throws MPIException {
        return end("MPI_File_write_all_end");
    }

    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_read_ordered_begin", () -> ordered(this::collectiveRead, buf, count, type));
    }

    public Status readOrderedEnd(Object buf) throws MPIException {
        return end("MPI_File_read_ordered_end");
    }

    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_write_ordered_begin", () -> ordered(this::collectiveWrite, buf, count, type));
    }

    public Status writeOrderedEnd(Object buf) throws MPIException {
        return end("MPI_File_write_ordered_end");
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
