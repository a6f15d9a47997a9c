import D2S

/// Whether changes to the current entity are audited.
public enum IsAuditLoggedKey: DynamicEnvironmentKey {
  public static var defaultValue: Bool { false }
  public static let exposedName: String? = "isAuditLogged"
}
/// A label for audit records.
public enum AuditLabelKey: DynamicEnvironmentKey {
  public static var defaultValue: String { "" }
  public static let exposedName: String? = "auditLabel"
}

extension RuleContext {
  /// Whether changes to the current entity are audited (`isAuditLogged`).
  public var isAuditLogged: Bool {
    get { self[IsAuditLoggedKey.self] }
    set { self[IsAuditLoggedKey.self] = newValue }
  }
  /// A label for audit records (`auditLabel`).
  public var auditLabel: String {
    get { self[AuditLabelKey.self] }
    set { self[AuditLabelKey.self] = newValue }
  }
}

/// Exposes `isAuditLogged` and `auditLabel`, with rules in Swift: payments and rentals are
/// audited, under the entity's display name.
public struct AuditKeysPlugin: D2SPlugin {
  public init() {}
  public let name = "AuditKeys"

  public func exposeKeys(in registry: D2SContextKVC) throws {
    try registry.expose(IsAuditLoggedKey.self)
    try registry.expose(AuditLabelKey.self)
  }

  public var rules: RuleModel {
    [
      \.entity?.name == "Payment" || \.entity?.name == "Rental" => \.isAuditLogged <= true,
      \.isAuditLogged => \.auditLabel <= \.displayNameForEntity,
    ]
  }
}
