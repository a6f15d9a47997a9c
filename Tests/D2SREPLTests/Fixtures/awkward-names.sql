-- Names SQLite and PostgreSQL allow: dots, spaces, symbols, non-Latin letters, reserved words.
CREATE TABLE "odd names" (
  id INTEGER PRIMARY KEY,
  "name with . and spaces" VARCHAR(20),
  "order" INTEGER,
  "and" VARCHAR(10),
  "user" VARCHAR(10),
  "prix €" NUMERIC(6,2),
  "Straße" VARCHAR(20),
  "名前" VARCHAR(20));
INSERT INTO "odd names" VALUES
  (1, 'puma', 2, 'x', 'ada', 9.50, 'Hauptstraße', '山田'),
  (2, 'lynx', 1, 'y', 'bob', 3.25, 'Ringweg', '田中');
