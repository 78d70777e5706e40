import CScan

/// Process-wide set-up that executables do once at start-up, never a library: `CommandRunner` ignores
/// SIGPIPE and SIGXFSZ for every command; commands that read logs call `tuneMalloc` before they start.
public enum ProcessSetup {
    /// Tunes the C library's malloc so peak memory stays flat on any input size: one arena per reading
    /// thread (glibc gives threads arenas of their own, up to 8 per core, each keeping freed blocks) and a
    /// fixed mmap threshold, so the 256 KiB read blocks go back to the system when freed (glibc otherwise
    /// raises the threshold after the first one and they accumulate in the heap). Then hands the heap's free
    /// pages back to the system once (the catalog's loading frees most of what it allocated). A no-op where the
    /// C library has no such settings.
    public static func tuneMalloc(threads: Int) {
        _ = cscan_tune_malloc(Int32(max(1, threads)))
        // Loading the catalog (YAML, the patterns' compilation) frees most of what it allocated, but the freed
        // pages stay in the heap and count in the resident size: hand them back once, before reading starts.
        _ = cscan_trim_heap()
        // The same for the binary's read-only pages that start-up touched (the embedded rule files, the YAML
        // parser, the patterns' compiler): the kernel drops them, and the pages reading needs come back on use.
        _ = cscan_release_file_pages()
    }
}
