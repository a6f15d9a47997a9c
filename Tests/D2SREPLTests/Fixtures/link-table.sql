-- A many-to-many through a link table that also records when (a timestamp).
CREATE TABLE students (id INTEGER PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL);
CREATE TABLE courses (id INTEGER PRIMARY KEY, code VARCHAR(10) NOT NULL, title VARCHAR(60) NOT NULL);
CREATE TABLE enrollments (
  student_id INTEGER NOT NULL REFERENCES students (id),
  course_id INTEGER NOT NULL REFERENCES courses (id),
  enrolled_at TIMESTAMP NOT NULL,
  PRIMARY KEY (student_id, course_id));
INSERT INTO students VALUES (1, 'Ana', 'Moreau'), (2, 'Bilal', 'Haddad'), (3, 'Chen', 'Wu');
INSERT INTO courses VALUES (1, 'DB101', 'Databases'), (2, 'TY201', 'Typography'), (3, 'AS110', 'Astronomy');
INSERT INTO enrollments VALUES
  (1, 1, '2023-09-01 08:00:00'), (1, 2, '2023-09-02 10:15:00'), (2, 1, '2023-09-01 09:00:00'),
  (3, 3, '2023-09-03 11:30:00');
