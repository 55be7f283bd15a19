// esbuild's file loader (build.py) turns an imported image into its URL.
declare module "*.avif" {
  const url: string;
  export default url;
}
declare module "*.jpg" {
  const url: string;
  export default url;
}
