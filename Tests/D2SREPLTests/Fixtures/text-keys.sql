-- Text primary keys, and two foreign keys without an id suffix to the same table.
CREATE TABLE airports (iata CHAR(3) PRIMARY KEY, name VARCHAR(60) NOT NULL, city VARCHAR(40) NOT NULL);
CREATE TABLE flights (
  id INTEGER PRIMARY KEY,
  number VARCHAR(8) NOT NULL,
  origin CHAR(3) NOT NULL REFERENCES airports (iata),
  destination CHAR(3) NOT NULL REFERENCES airports (iata));
INSERT INTO airports VALUES ('NVL', 'Northvale Regional', 'Northvale'), ('SBY', 'Saltby Field', 'Saltby');
INSERT INTO flights VALUES (1, 'NV101', 'NVL', 'SBY'), (2, 'NV102', 'SBY', 'NVL'), (3, 'NV201', 'NVL', 'SBY');
