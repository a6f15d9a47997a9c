-- Values SQLite keeps as they were given: one row per trait (Stored values, issue "exactly what
-- the database holds"). Control characters are written with char() so the file stays text.
CREATE TABLE measure (
  id INTEGER PRIMARY KEY, label TEXT NOT NULL, reading REAL, amount INTEGER,
  price NUMERIC(10,2), anything ANY, untyped, day DATE, stamp DATETIME, note TEXT);
INSERT INTO measure VALUES (1, 'neg inf', -1e999, 0, 1.5, x'00ff41', x'0001',
  '2024-03-05 10:11:12', '2024-03-05T10:11:12.345Z',
  'line1' || char(10) || 'line2' || char(9) || 'tab' || char(27) || '[31mred' || char(7));
INSERT INTO measure VALUES (2, 'text in numbers', '0 102', '12abc', '7 days', 'plain', 5,
  19787, 1709633472, 'bidi ' || char(8238) || 'abc' || char(127) || char(133));
INSERT INTO measure VALUES (3, 'canonical', 2.5, 42, 253.60, 3.25, 'x',
  '2024-03-05', '2024-03-05 10:11:12', NULL);
INSERT INTO measure VALUES (4, 'date in datetime', 1e999, 7, NULL, NULL, NULL,
  '2024-03-05', '2024-03-05', 'ok');
-- The year's last microsecond, and an integer beyond a double's 53 bits in a NUMERIC column.
INSERT INTO measure VALUES (5, 'edges', 0.5, 1, 9007199254740993, NULL, NULL,
  '9999-12-31', '9999-12-31 23:59:59.999999', NULL);
-- A text key that may be NULL (SQLite allows it) and rows that point at no tag.
CREATE TABLE tag (name TEXT PRIMARY KEY, color TEXT);
INSERT INTO tag VALUES ('red', 'r'), (NULL, 'none');
CREATE TABLE tagging (id INTEGER PRIMARY KEY, tag_name TEXT REFERENCES tag(name), what TEXT);
INSERT INTO tagging VALUES (1, 'red', 'apple'), (2, NULL, 'stone'), (3, NULL, 'cloud');
-- Keys only their stored form compares with: a blob, and a double no decimal text holds
-- exactly, each with rows that refer to it (and one that refers to nothing, NULL).
CREATE TABLE badge (code BLOB PRIMARY KEY, title TEXT NOT NULL);
INSERT INTO badge VALUES (x'00ff', 'gold'), (x'01', 'silver');
CREATE TABLE award (id INTEGER PRIMARY KEY, badge_code BLOB REFERENCES badge(code), who TEXT);
INSERT INTO award VALUES (1, x'00ff', 'ann'), (2, x'00ff', 'ben'), (3, NULL, 'cy'),
  (4, x'01', 'dee');
CREATE TABLE level (score REAL PRIMARY KEY, title TEXT NOT NULL);
INSERT INTO level VALUES (0.30000000000000004, 'third'), (0.1, 'tenth');
CREATE TABLE attempt (id INTEGER PRIMARY KEY, level_score REAL REFERENCES level(score), who TEXT);
INSERT INTO attempt VALUES (1, 0.30000000000000004, 'ann'), (2, 0.1, 'ben'), (3, NULL, 'cy');
