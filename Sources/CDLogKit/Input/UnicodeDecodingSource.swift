/// UTF-16 or UTF-32 → UTF-8.
final class UnicodeDecodingSource: ConvertingSource {
    private let encoding: TextDecoding.Encoding
    private var skip: Int
    private var carry: [UInt8] = []
    private var highSurrogate: UInt32?

    init(_ inner: any ByteSource, encoding: TextDecoding.Encoding, skip: Int) {
        self.encoding = encoding
        self.skip = skip
        super.init(inner)
    }

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        let unit = encoding == .utf32LE || encoding == .utf32BE ? 4 : 2
        var data = carry
        data.append(contentsOf: bytes)
        if skip > 0 { let n = min(skip, data.count); data.removeFirst(n); skip -= n }
        let whole = data.count - data.count % unit
        var i = 0
        while i < whole {
            let value: UInt32
            switch encoding {
            case .utf16LE: value = UInt32(data[i]) | UInt32(data[i + 1]) << 8
            case .utf16BE: value = UInt32(data[i]) << 8 | UInt32(data[i + 1])
            case .utf32LE: value = UInt32(data[i]) | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2]) << 16 | UInt32(data[i + 3]) << 24
            default: value = UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
            }
            i += unit
            if unit == 2 {
                if (0xD800...0xDBFF).contains(value) {
                    if highSurrogate != nil { append(0xFFFD) }
                    highSurrogate = value
                    continue
                }
                if (0xDC00...0xDFFF).contains(value), let high = highSurrogate {
                    highSurrogate = nil
                    append(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                    continue
                }
                if highSurrogate != nil { highSurrogate = nil; append(0xFFFD) }
            }
            append(value)
        }
        carry = Array(data[whole...])
        if atEnd {
            if highSurrogate != nil || !carry.isEmpty { append(0xFFFD) }
            highSurrogate = nil
            carry = []
        }
    }

    private func append(_ value: UInt32) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        output.append(contentsOf: UTF8.encode(scalar)!)
    }
}
