-- PascalCase names (Chinook style): "ArtistId" keys, a foreign key ending in Id.
CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY, "Name" VARCHAR(120));
CREATE TABLE "Album" (
  "AlbumId" INTEGER PRIMARY KEY,
  "Title" VARCHAR(160) NOT NULL,
  "ArtistId" INTEGER NOT NULL REFERENCES "Artist" ("ArtistId"));
INSERT INTO "Artist" VALUES (1, 'The Paper Lanterns'), (2, 'Quiet Harbour');
INSERT INTO "Album" VALUES (1, 'Night Ferry', 1), (2, 'Lantern Songs', 1), (3, 'Tide Tables', 2);
