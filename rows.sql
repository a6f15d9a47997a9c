SELECT t0."film_id", t0."title", t0."release_year", t0."length", t0."rental_duration", t0."rating", t0."rental_rate", t0."film_id" FROM "public"."film" t0 ORDER BY t0."film_id" ASC LIMIT 51;
