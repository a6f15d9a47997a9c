import EnvKeys
import Plugins

/// Whether changes to the current entity are audited.
public enum IsAuditLoggedKey: DynamicEnvironmentKey { public static var defaultValue: Bool { false } }
/// A label for audit records.
public enum AuditLabelKey: DynamicEnvironmentKey { public static var defaultValue: String { "" } }

/// Exposes `isAuditLogged` and `auditLabel`, with rules: payments and rentals are audited.
public struct AuditKeysPlugin: D2SPlugin {
  public init() {}
  public let name = "AuditKeys"

  public func exposeKeys(in registry: D2SContextKVC) throws {
    try registry.expose(IsAuditLoggedKey.self, "isAuditLogged")
    try registry.expose(AuditLabelKey.self, "auditLabel")
  }

  public var ruleText: String? {
    """
    entity.name in ('Payment', 'Rental') => isAuditLogged = true
    isAuditLogged => auditLabel = displayNameForEntity
    """
  }
}
