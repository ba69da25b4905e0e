// A JSON Schema that constrained decoding cannot enforce (schema-shape.ts, schema-merge.ts), and where: a path
// under the schema ("properties.a.pattern"), which the caller turns into a 400 naming the field.
export class SchemaProblem extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.name = "SchemaProblem";
    this.path = path;
  }
}
