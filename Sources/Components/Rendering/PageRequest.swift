import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// What one page is asked for: by a REPL command, a test, or a URL. A value: it holds no
/// session state, and any number of requests can be rendered at once.
public struct PageRequest: Sendable {
  /// The task (`query`, `list`, `inspect`, `edit`, `login`…); nil keeps the base context's.
  public var task: String?
  /// The entity, by name; nil keeps the base context's.
  public var entityName: String?
  /// The primary key of the object to show (fetched for the request), one value per column.
  public var key: [DatabaseValue]?
  /// An object already in hand (being edited, or new), shown as it is.
  public var object: DatabaseObject?
  /// A filter on top of the list's own (a followed to-many's).
  public var auxiliaryQualifier: Qualifier?
  /// The list page's qualifier, orderings, window and extra columns.
  public var list: ListRequest
  /// The logged-in user (nil: the base context's).
  public var user: DatabaseObject?
  /// The renderer's platform (`terminal`, `json`…); nil: the rules decide.
  public var platform: String?
  /// Columns available; nil for no limit.
  public var width: Int?
  /// Whether a terminal shows text styles (ANSI codes): one is attached, `NO_COLOR` unset.
  public var styles = false
  /// How the `csv` platform writes values (as stored, or as shown; spreadsheet-safe).
  public var csv = CSVOptions()
  /// The connection to read through (a server's pooled reader); nil: the base context's.
  public var database: Database?
  /// The page's title when the front end names it (a followed to-many's list: `Actors of
  /// ACADEMY DINOSAUR`), set as an explicit `navigationBarTitle`; nil: the rules decide.
  public var title: String?

  /// A request; every part is optional.
  public init(
    task: String? = nil, entityName: String? = nil, key: [DatabaseValue]? = nil,
    object: DatabaseObject? = nil, auxiliaryQualifier: Qualifier? = nil,
    list: ListRequest = ListRequest(), user: DatabaseObject? = nil, platform: String? = nil,
    width: Int? = 100
  ) {
    self.task = task
    self.entityName = entityName
    self.key = key
    self.object = object
    self.auxiliaryQualifier = auxiliaryQualifier
    self.list = list
    self.user = user
    self.platform = platform
    self.width = width
  }
}
