// One import for writing D2S rules, keys, components and plugins: `import D2S`.
//
// It brings typed keys and the registry (EnvKeys), qualifiers (Qualifiers), rules, the
// Swift rule DSL and rule contexts (RuleCore), the model and database objects (D2SModel), the
// builtin keys, looks and components (Components) and the plugin API (Plugins). Database
// adaptors (SQLiteAdaptor, PostgreSQLAdaptor), the REPL (D2SREPL) and test helpers
// (D2STesting) stay separate imports, so a program that needs no libpq links none.

@_exported import Components
@_exported import D2SModel
@_exported import EnvKeys
@_exported import Plugins
@_exported import Qualifiers
@_exported import RuleCore
