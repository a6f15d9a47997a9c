import AuditKeys
import D2SREPL
import CompactLook
import RatingComponents

// A custom REPL: d2s-repl with three plugins installed.
D2SREPLCommand.main(plugins: [AuditKeysPlugin(), RatingComponentsPlugin(), CompactLookPlugin()])
