/// Where the scanner puts a masked text: the bytes it keeps and the placeholders.
public protocol MaskSink {
    mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func placeholder(_ kind: StaticString)
}
