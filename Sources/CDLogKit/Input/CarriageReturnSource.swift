/// Carriage returns → line feeds (a `\r\n` pair stays one line end).
final class CarriageReturnSource: ConvertingSource {
    private var lastWasCR = false

    override func convert(_ bytes: UnsafeRawBufferPointer, atEnd: Bool) throws {
        for b in bytes {
            if b == 0x0D { output.append(0x0A); lastWasCR = true; continue }
            if b == 0x0A, lastWasCR { lastWasCR = false; continue }
            lastWasCR = false
            output.append(b)
        }
    }
}
