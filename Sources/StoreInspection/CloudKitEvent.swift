public struct CloudKitEvent: Sendable, Equatable {
    public var type: String
    public var succeeded: Bool?
    public var errorDomain: String?
    public var errorCode: Int?
    public var startedAt: Double?
    public var endedAt: Double?
}
