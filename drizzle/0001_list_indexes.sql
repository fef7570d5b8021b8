DROP INDEX `audit_log_at`;--> statement-breakpoint
CREATE INDEX `audit_log_at_id` ON `audit_log` (`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_action` ON `audit_log` (`action`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_actor` ON `audit_log` (`actor`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_log_entity` ON `audit_log` (`entity_type`,`entity_id`,`at`,`id`);--> statement-breakpoint
CREATE INDEX `customers_name` ON `customers` ("name" COLLATE NOCASE,`id`);