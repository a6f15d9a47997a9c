import EnvKeys

enum TaskKey: DynamicEnvironmentKey { static var defaultValue: String { "query" } }
enum CountKey: DynamicEnvironmentKey { static var defaultValue: Int { 0 } }
enum NamesKey: DynamicEnvironmentKey { static var defaultValue: [String] { [] } }
enum NoteKey: DynamicEnvironmentKey { static var defaultValue: String? { nil } }

extension DynamicEnvironmentValues {
  var task: String {
    get { self[TaskKey.self] }
    set { self[TaskKey.self] = newValue }
  }
  var count: Int {
    get { self[CountKey.self] }
    set { self[CountKey.self] = newValue }
  }
  var note: String? {
    get { self[NoteKey.self] }
    set { self[NoteKey.self] = newValue }
  }
}
