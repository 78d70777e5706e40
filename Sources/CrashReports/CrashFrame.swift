import CDLogCore
import Foundation

/// One stack frame: the image (binary) name, and the symbol when the report is symbolicated.
public struct CrashFrame {
    public var image: String?
    public var symbol: String?
    /// Offset into the image (unsymbolicated frames are shown as `image + offset`).
    public var offset: UInt64?

    /// `image  symbol`, or `image + offset` when there is no symbol.
    public var display: String {
        let imageName = image ?? "???"
        if let symbol, !symbol.isEmpty { return "\(imageName)  \(symbol)" }
        if let offset { return "\(imageName) + \(offset)" }
        return imageName
    }

    public var isSymbolicated: Bool { symbol.map { !$0.isEmpty } ?? false }
}
