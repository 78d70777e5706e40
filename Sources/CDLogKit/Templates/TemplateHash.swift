/// FNV-1a (64 bits) of a masked text's bytes: the same for the same text on every run and machine. Two
/// templates share a hash with a chance of about n²/2⁶⁵ among n templates (1 in 10¹¹ for 10 000).
public struct TemplateHash: MaskSink {
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    public init() {}

    public init(_ text: String) {
        for byte in text.utf8 { add(byte) }
    }

    @inline(__always) public mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    public mutating func keep(_ part: UnsafeBufferPointer<UInt8>) {
        for byte in part { add(byte) }
    }

    public mutating func placeholder(_ kind: StaticString) {
        keep(UnsafeBufferPointer(start: kind.utf8Start, count: kind.utf8CodeUnitCount))
    }
}
