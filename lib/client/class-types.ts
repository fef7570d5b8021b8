import type {
  ClassAnswer,
  ClassesAnswer,
  ClassView,
} from "@/lib/schemas/operation-class-answer.schema";

// The operation-class admin API's response shapes, typed from their answer schemas.

export type { ClassView };

/** ClassesResponse is GET /api/admin/classes. */
export type ClassesResponse = ClassesAnswer;

/** ClassResponse is what creating or editing a class answers. */
export type ClassResponse = ClassAnswer;
