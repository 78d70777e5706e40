/// Removes one `>` quote marker (and one space after it) or `indent` leading blanks from every line.
final class PasteUnwrapSource: ConvertingSource {
    private let quoted: Bool
    private let indent: Int
    /// Bytes of the current line seen so far (only the first `indent + 2` matter).
    private var column = 0
    private var droppedQuote = false

    init(_ inner: any ByteSource, quoted: Bool, indent: Int) {
        self.quoted = quoted
        self.indent = indent
        super.init(inner)
    }

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes {
            if b == 0x0A {
                output.append(b)
                column = 0
                droppedQuote = false
                continue
            }
            defer { column += 1 }
            if quoted {
                if column == 0, b == UInt8(ascii: ">") { droppedQuote = true; continue }
                if column == 1, droppedQuote, b == 0x20 { continue }
            } else if column < indent, b == 0x20 || b == 0x09 {
                continue
            } else if column < indent {
                column = indent  // a shorter indentation: keep the rest of the line as it is
            }
            output.append(b)
        }
    }
}
