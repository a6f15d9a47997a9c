-- Values of PostgreSQL types D2S once showed otherwise: one column per trait.
CREATE TABLE measure (
  id serial PRIMARY KEY, label text NOT NULL, reading double precision, price numeric(12,2),
  amount numeric, big numeric, cash money, stamp timestamptz, plain_stamp timestamp(3),
  clock timetz, tags text[], nums int[], note text, doc jsonb);
INSERT INTO measure (label, reading, price, amount, big, cash, stamp, plain_stamp, clock, tags,
  nums, note, doc) VALUES
  ('neg inf', '-Infinity', 253.60, 253.60, 123456789012345678901234567890.12, '-5.00',
   '2024-03-05 10:11:12.345+00', '2024-03-05 10:11:12.345', '10:11:12+02',
   ARRAY['a', NULL, 'NULL', 'b c'], ARRAY[7, 8], E'line1\nline2\t\x1b[31mred\x07', '{"a": 1}'),
  ('plain', 2.5, 4.99, 5, 1, '1234.5', '2024-03-05 10:11:12+00', '2024-03-05 10:11:12',
   '10:11:12+00', '{}', NULL, 'ok', NULL);
-- A uuid key and a to-one to it.
CREATE TABLE person (
  id uuid PRIMARY KEY, name text NOT NULL, manager_id uuid REFERENCES person(id));
INSERT INTO person VALUES
  ('550e8400-e29b-41d4-a716-446655440000', 'Ada', NULL),
  ('12345678-1234-1234-1234-123456789abc', 'Bob', NULL);
-- A numeric key whose text keeps a trailing zero (kept verbatim) and rows that refer to it.
CREATE TABLE account (code numeric PRIMARY KEY, title text NOT NULL);
INSERT INTO account VALUES (1.50, 'petty cash'), (20, 'bank');
CREATE TABLE entry (
  id serial PRIMARY KEY, account_code numeric REFERENCES account(code), who text);
INSERT INTO entry (account_code, who) VALUES (1.50, 'stamps'), (1.50, 'tea'), (NULL, 'none'),
  (20, 'rent');
