-- Generated columns (stored and virtual) and tables SQLite keeps for itself: full-text and
-- R-tree shadow tables, sqlite_sequence.
CREATE TABLE item (
  id INTEGER PRIMARY KEY, price REAL, qty INTEGER,
  total REAL GENERATED ALWAYS AS (price * qty) STORED,
  label TEXT GENERATED ALWAYS AS ('#' || id) VIRTUAL);
INSERT INTO item (price, qty) VALUES (2.5, 4);
CREATE VIRTUAL TABLE docs_fts USING fts4(body);
INSERT INTO docs_fts VALUES ('hello world');
CREATE VIRTUAL TABLE notes USING fts5(body);
CREATE VIRTUAL TABLE box USING rtree(id, minx, maxx);
CREATE TABLE counter (id INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER);
INSERT INTO counter (n) VALUES (1);
