#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CDLogCore

/// Reads numbered batches of a file in order, with helper threads reading ahead: WAL frame headers
/// (`frameHeaders`: one 24-byte `pread` per frame, never a page image) or whole frames (`frames`: one
/// `pread` per chunk).
///
/// Why threads: a frame header costs a system call and, being the only bytes wanted from its 4 KiB page,
/// usually a cache miss in the kernel's copy; whole frames cost the kernel's copy while the caller
/// computes checksums. Batches are independent, so with `threads` > 1 they are read concurrently: batch j
/// is read by helper j mod (number of helpers) — or, when `callerReads`, by thread j mod `threads`, thread 0
/// being the caller itself when it asks for the batch — into a ring of `depth` private buffers per helper,
/// and the caller takes them in order.
/// Each helper reads through its own descriptor of the same file (`ReadOnlyFile.openedAgain`, O_RDONLY;
/// threads sharing one contend on its reference count at every `pread`). Memory: (`threads` - 1) × `depth`
/// + 1 buffers of `bufferBytes` at most, whatever the file size.
///
/// Contract: `next()` returns the batches in order; a short read (the file shrank) ends the stream after
/// that batch's complete units, with `truncated` set; an I/O error is thrown by `next()` when the caller
/// reaches the batch it happened in. `finish()` (idempotent; `deinit` calls it) stops and joins the
/// helpers. Helpers only `pread`.
final class ReadAhead {
    /// What reading one batch gave: `count` complete units (frames or frame headers), `bytes` read.
    struct Result {
        var count = 0
        var bytes = 0
        var short = false
        var error: ToolFailure?
    }
    typealias Reader = @Sendable (_ file: ReadOnlyFile, _ batch: Int, _ into: UnsafeMutableRawBufferPointer) -> Result

    struct Batch {
        let index: Int
        let buffer: UnsafeRawBufferPointer
        let count: Int
    }

    static let depth = 3

    private let file: ReadOnlyFile
    private let batches: Int
    private let read: Reader
    private let callerReads: Bool
    private var own: UnsafeMutableRawBufferPointer?
    private var helpers: [Helper] = []
    private var threads = 1
    private var nextBatch = 0
    /// The helper whose buffer the caller holds (handed back at the next `next()`).
    private var held: Helper?
    private var ended = false
    /// A read came back short: the file ended early.
    private(set) var truncated = false
    /// Bytes read for the batches handed out.
    private(set) var bytesRead: Int64 = 0

    /// `threads` threads in all, the caller's included: `threads` - 1 helpers read, and so does the caller
    /// when `callerReads`. With one thread, or when no helper can be started, the caller reads everything.
    init(file: ReadOnlyFile, batches: Int, bufferBytes: Int, threads: Int, callerReads: Bool, read: @escaping Reader) {
        self.file = file
        self.batches = batches
        self.read = read
        let helperCount = max(0, min(threads - 1, callerReads ? batches - 1 : batches))
        let stride = callerReads ? helperCount + 1 : helperCount
        for h in 0..<helperCount {
            let helper = Helper(file: file.openedAgain() ?? file, first: callerReads ? h + 1 : h, stride: stride,
                                batches: batches, bufferBytes: bufferBytes, read: read)
            guard helper.start() else {
                for started in helpers { started.stop() }
                helpers = []
                break
            }
            helpers.append(helper)
        }
        self.callerReads = helpers.isEmpty || callerReads
        self.threads = helpers.isEmpty ? 1 : stride
        if self.callerReads { own = .allocate(byteCount: max(1, bufferBytes), alignment: 64) }
    }

    deinit {
        finish()
        own?.deallocate()
    }

    /// Stops and joins the helpers.
    func finish() {
        for helper in helpers { helper.stop() }
        helpers = []
        held = nil
        ended = true
    }

    /// The next batch, or nil at the end (or after a short read). Its memory is valid until the next call.
    func next() throws -> Batch? {
        if let h = held { h.release(); held = nil }
        guard !ended, nextBatch < batches else { return nil }
        let j = nextBatch
        nextBatch += 1
        let owner = j % threads
        let result: Result
        let buffer: UnsafeRawBufferPointer
        if callerReads && owner == 0, let own {
            result = read(file, j, own)
            buffer = UnsafeRawBufferPointer(own)
        } else {
            let helper = helpers[callerReads ? owner - 1 : owner]
            (result, buffer) = helper.take()
            held = helper
        }
        if let error = result.error { ended = true; throw error }
        bytesRead += Int64(result.bytes)
        if result.short { ended = true; truncated = true }
        if result.count == 0 { return nil }
        return Batch(index: j, buffer: buffer, count: result.count)
    }

    /// A thread reading batches `first`, `first + stride`, … into a ring of `depth` buffers.
    final class Helper: @unchecked Sendable {
        private let file: ReadOnlyFile
        private let first: Int, stride: Int, batches: Int
        private let read: Reader
        private let slots: [UnsafeMutableRawBufferPointer]
        // Guarded by `mutex`: batches read (`produced`) and handed back (`consumed`), in this helper's order.
        private var results: [Result]
        private var produced = 0
        private var consumed = 0
        private var stopping = false
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        #if canImport(Darwin)
        private var thread: pthread_t?
        #else
        private var thread = pthread_t()
        #endif
        private var running = false

        init(file: ReadOnlyFile, first: Int, stride: Int, batches: Int, bufferBytes: Int, read: @escaping Reader) {
            self.file = file
            self.first = first
            self.stride = stride
            self.batches = batches
            self.read = read
            slots = (0..<ReadAhead.depth).map { _ in .allocate(byteCount: bufferBytes, alignment: 64) }
            results = Array(repeating: Result(), count: ReadAhead.depth)
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(cond, nil)
        }

        deinit {
            stop()
            pthread_cond_destroy(cond)
            pthread_mutex_destroy(mutex)
            cond.deallocate()
            mutex.deallocate()
            for slot in slots { slot.deallocate() }
        }

        /// Starts the thread; false when it cannot be created.
        func start() -> Bool {
            let context = Unmanaged.passRetained(self).toOpaque()
            let rc = pthread_create(&thread, nil, { context in
                #if canImport(Darwin)
                let helper = Unmanaged<Helper>.fromOpaque(context).takeRetainedValue()
                #else
                let helper = Unmanaged<Helper>.fromOpaque(context!).takeRetainedValue()
                #endif
                helper.run()
                return nil
            }, context)
            if rc != 0 {
                Unmanaged<Helper>.fromOpaque(context).release()
                return false
            }
            running = true
            return true
        }

        /// Asks the thread to stop and joins it.
        func stop() {
            guard running else { return }
            pthread_mutex_lock(mutex)
            stopping = true
            pthread_cond_broadcast(cond)
            pthread_mutex_unlock(mutex)
            #if canImport(Darwin)
            if let thread { pthread_join(thread, nil) }
            #else
            pthread_join(thread, nil)
            #endif
            running = false
        }

        private func run() {
            var sequence = 0
            while true {
                let batch = first + sequence * stride
                if batch >= batches { return }
                pthread_mutex_lock(mutex)
                while produced - consumed == ReadAhead.depth && !stopping { pthread_cond_wait(cond, mutex) }
                let stop = stopping
                pthread_mutex_unlock(mutex)
                if stop { return }
                let slot = sequence % ReadAhead.depth
                let result = read(file, batch, slots[slot])
                pthread_mutex_lock(mutex)
                results[slot] = result
                produced += 1
                pthread_cond_broadcast(cond)
                pthread_mutex_unlock(mutex)
                if result.short || result.error != nil { return } // nothing after it will be asked for
                sequence += 1
            }
        }

        /// Waits for this helper's next batch; its buffer stays the caller's until `release()`.
        func take() -> (Result, UnsafeRawBufferPointer) {
            pthread_mutex_lock(mutex)
            while produced == consumed && !stopping { pthread_cond_wait(cond, mutex) }
            let slot = consumed % ReadAhead.depth
            let result = produced > consumed ? results[slot] : Result(error: ToolFailure("internal error: read-ahead stopped"))
            pthread_mutex_unlock(mutex)
            return (result, UnsafeRawBufferPointer(slots[slot]))
        }

        func release() {
            pthread_mutex_lock(mutex)
            consumed += 1
            pthread_cond_broadcast(cond)
            pthread_mutex_unlock(mutex)
        }
    }
}

extension ReadAhead {
    static let headerBatch = 1024

    /// The 24-byte headers of frames `first…last`, `headerBatch` frames per batch, one `pread` each,
    /// back to back in the batch's buffer; the caller reads every `threads`-th batch itself.
    static func frameHeaders(file: ReadOnlyFile, frameSize: Int, first: Int, last: Int, threads: Int) -> ReadAhead {
        let frames = max(0, last - first + 1)
        let size = WALReader.frameHeaderSize
        return ReadAhead(file: file, batches: (frames + headerBatch - 1) / headerBatch, bufferBytes: headerBatch * size,
                         threads: threads, callerReads: true) { file, batch, buffer in
            var result = Result()
            let start = first + batch * headerBatch
            let end = min(last, start + headerBatch - 1)
            var offset = Int64(WALHeader.size) + Int64(start - 1) * Int64(frameSize)
            for i in 0...(end - start) {
                let target = UnsafeMutableRawBufferPointer(rebasing: buffer[(i * size)..<((i + 1) * size)])
                let got: Int
                do { got = try file.read(into: target, at: offset, count: size) } catch {
                    result.error = error as? ToolFailure ?? ToolFailure("cannot read \(file.path)")
                    return result
                }
                result.bytes += got
                if got < size { result.short = true; return result }
                result.count += 1
                offset += Int64(frameSize)
            }
            return result
        }
    }

    /// Whole frames `first…last`, `perChunk` frames (one `pread`) per batch; with `threads` > 1 the
    /// `threads` - 1 helpers do all the reading and the caller only computes (checksums).
    static func frames(file: ReadOnlyFile, frameSize: Int, first: Int, last: Int, perChunk: Int, threads: Int) -> ReadAhead {
        let frames = max(0, last - first + 1)
        return ReadAhead(file: file, batches: (frames + perChunk - 1) / perChunk, bufferBytes: perChunk * frameSize,
                         threads: threads, callerReads: false) { file, batch, buffer in
            var result = Result()
            let start = first + batch * perChunk
            let count = min(perChunk, last - start + 1)
            let offset = Int64(WALHeader.size) + Int64(start - 1) * Int64(frameSize)
            do { result.bytes = try file.read(into: buffer, at: offset, count: count * frameSize) } catch {
                result.error = error as? ToolFailure ?? ToolFailure("cannot read \(file.path)")
                return result
            }
            result.count = result.bytes / frameSize
            result.short = result.bytes < count * frameSize
            return result
        }
    }
}
