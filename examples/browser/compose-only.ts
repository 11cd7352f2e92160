// Everything @weft/compose exports, for measuring what compose alone adds to a browser bundle.
export * as compose from '@weft/compose';
