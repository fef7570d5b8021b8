CREATE TABLE `quota_counts` (
	`key` text NOT NULL,
	`calendar_id` text NOT NULL,
	`start_ms` integer NOT NULL,
	`used` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`key`, `calendar_id`)
);
