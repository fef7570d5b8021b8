CREATE TABLE `quota_grants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`period` text NOT NULL,
	`time_zone` text NOT NULL,
	`period_start_ms` integer NOT NULL,
	`extra` integer NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "quota_grants_period" CHECK("quota_grants"."period" IN ('day', 'week', 'month')),
	CONSTRAINT "quota_grants_extra_positive" CHECK("quota_grants"."extra" > 0)
);
--> statement-breakpoint
CREATE INDEX `quota_grants_customer` ON `quota_grants` (`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `quota_grants_period_start` ON `quota_grants` (`period_start_ms`);--> statement-breakpoint
-- Not drizzle-kit's rebuild of customers: the migrator runs in one transaction, where
-- foreign_keys=OFF does nothing, so dropping the old table would cascade to every customer's
-- items, overrides and grants. The column is added in place instead, with its CHECK, and filled
-- from created_at: each customer's billing day is the UTC day of the month it was created on.
ALTER TABLE `customers` ADD `billing_anchor_day` integer DEFAULT 1 NOT NULL CONSTRAINT "customers_billing_anchor_day" CHECK("billing_anchor_day" BETWEEN 1 AND 31);--> statement-breakpoint
UPDATE `customers` SET `billing_anchor_day` = COALESCE(CAST(strftime('%d', `created_at` / 1000.0, 'unixepoch') AS INTEGER), 1);
