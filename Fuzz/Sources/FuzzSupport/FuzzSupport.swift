/// Helpers shared by the fuzz targets.
public enum FuzzInput {
    /// Copies libFuzzer's input into an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Stops the fuzzer with a message: an invariant of the library was broken (libFuzzer records the
    /// input as a crash).
    public static func fail(_ message: @autoclosure () -> String) -> Never {
        fatalError("fuzz invariant broken: \(message())")
    }
}

/// libFuzzer's entry point for programs that have their own `main` (LLVM ≥ 12).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Runs libFuzzer with `callback` as LLVMFuzzerTestOneInput. SwiftPM links every executable target with
/// `main` renamed to `<Module>_main`; each target defines that symbol and calls this.
public func runFuzzer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector, callback)
}
