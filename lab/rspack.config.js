// Bundles index.js and the extensions into build/bundle.js (plus chunks).
// `npm run build` runs assets.js first (build/style.js, build/extensions.js).
'use strict';
const path = require('path');
const rspack = require('@rspack/core');
const svgToDataURI = require('mini-svg-data-uri');

module.exports = {
  entry: './index.js',
  output: {
    path: path.join(__dirname, 'build'),
    filename: 'bundle.js',
    chunkFilename: '[name].[contenthash].js',
    clean: false // assets.js empties build/ before each build
  },
  mode: 'production',
  devtool: false,
  bail: true,
  performance: { hints: false },
  module: {
    rules: [
      { test: /\.css$/, use: ['style-loader', 'css-loader'] },
      { test: /\.raw\.css$/, type: 'asset/source' },
      { test: /\.md$/, type: 'asset/source' },
      { test: /\.html$/, type: 'asset/resource' },
      { test: /\.(jpg|png|gif)$/, type: 'asset/resource' },
      { test: /\.(woff2?|ttf|eot)(\?v=\d+\.\d+\.\d+)?$/, type: 'asset/resource' },
      {
        // SVG from CSS: inline data URIs.
        test: /\.svg(\?v=\d+\.\d+\.\d+)?$/,
        issuer: /\.css$/,
        type: 'asset/inline',
        // rspack passes the file as a Buffer, or as {content}.
        generator: { dataUrl: c => svgToDataURI(String(c && c.content !== undefined ? c.content : c)) }
      },
      {
        // SVG from JavaScript (icons): the text of the file.
        test: /\.svg(\?v=\d+\.\d+\.\d+)?$/,
        issuer: /\.js$/,
        type: 'asset/source'
      }
    ]
  },
  resolve: {
    fallback: { path: false, fs: false, url: false, util: false, crypto: false }
  },
  plugins: [
    new rspack.DefinePlugin({
      // Some packages call process.cwd() or read process.env.
      process: { cwd: () => '/', env: {} }
    })
  ]
};
