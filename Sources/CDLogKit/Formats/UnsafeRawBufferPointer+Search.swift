import CScan
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

extension UnsafeRawBufferPointer {
    @inline(__always) func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard self.count >= count else { return false }
        return memcmp(baseAddress!, prefix.utf8Start, count) == 0
    }

    @inline(__always) func hasPrefix(_ prefix: StaticString, at offset: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard offset >= 0, self.count - offset >= count else { return false }
        return memcmp(baseAddress! + offset, prefix.utf8Start, count) == 0
    }

    func contains(byte: UInt8, before limit: Int) -> Bool {
        let end = Swift.min(limit, count)
        guard end > 0 else { return false }
        return memchr(baseAddress!, Int32(byte), end) != nil
    }

    /// Index of the first `byte` at or after `from`, before `to`.
    @inline(__always) func firstIndex(of byte: UInt8, from: Int, to: Int? = nil) -> Int? {
        let stop = Swift.min(to ?? count, count)
        guard from < stop else { return nil }
        guard let found = memchr(baseAddress! + from, Int32(byte), stop - from) else { return nil }
        return UnsafeRawPointer(found) - baseAddress!
    }
}
