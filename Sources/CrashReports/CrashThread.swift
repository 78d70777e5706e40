import CDLogCore
import Foundation

public struct CrashThread {
    public var number: Int
    public var name: String?
    public var queue: String?
    public var crashed = false
    public var frames: [CrashFrame] = []

    public var isMain: Bool {
        queue == "com.apple.main-thread" || name == "com.apple.main-thread"
    }
}
