CREATE TABLE `route_rules` (
	`position` integer PRIMARY KEY NOT NULL,
	`method` text NOT NULL,
	`pattern` text NOT NULL,
	`unmetered` integer DEFAULT false NOT NULL,
	`operation` text,
	`cost` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "route_rules_position" CHECK("route_rules"."position" >= 0),
	CONSTRAINT "route_rules_pattern" CHECK(substr("route_rules"."pattern", 1, 1) = '/'),
	CONSTRAINT "route_rules_unmetered" CHECK("route_rules"."unmetered" IN (0, 1)),
	CONSTRAINT "route_rules_cost" CHECK("route_rules"."cost" IS NULL OR ("route_rules"."cost" BETWEEN 1 AND 1000000)),
	CONSTRAINT "route_rules_unmetered_alone" CHECK("route_rules"."unmetered" = 0 OR ("route_rules"."operation" IS NULL AND "route_rules"."cost" IS NULL))
);
