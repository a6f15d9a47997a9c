/// Text an attacker types where D2S takes a filter, an order, a search, a key or a position:
/// SQL meant to escape its place (quotes closed early, comments, stacked statements, `COMMIT`
/// out of a read-only transaction, functions that write or wait), a NUL, a path, a placeholder
/// and a bidirectional override. The web's tests send each through every parameter of a page,
/// the agents' tests through every argument of every tool: each must be refused or read as a
/// value, and reach no SQL of its own.
public enum InjectionStrings {
  /// The strings, each one attack.
  public static let all = [
    "'; DROP TABLE film; --",
    "1 OR 1=1",
    "title = 'x' UNION SELECT password FROM staff",
    "\") ; DELETE FROM film; --",
    "film_id) FROM film; --",
    "%' OR '1'='1",
    "\u{0}",
    "../../etc/passwd",
    "x'; COMMIT; DELETE FROM film; --",
    "/* */ title = 'x' -- ",
    "title = 'a' OR (SELECT pg_sleep(5)) IS NULL",
    "1; ATTACH DATABASE 'x.db' AS x",
    "title LIKE '%' || (SELECT sqlite_version()) || '%'",
    "\\'; SELECT 1; --",
    "$1",
    "title = '\u{202E}x'",
  ]
}
