import AuditKeys
import CompactLook
import D2SREPL
import RatingComponents

// A custom REPL: d2s-repl with three plugins installed.
D2SREPLCommand.main(plugins: [AuditKeysPlugin(), RatingComponentsPlugin(), CompactLookPlugin()])
